/** Every sentence visitors and subscribers read, in one place (a later issue translates them). */
export const WORDING = {
  checkInbox:
    'Thank you. If this address can receive mail, a message with a confirmation link is on its way; the subscription starts once you follow it.',
  webhookSubscribed: 'Subscribed. Keep the secret: it signs every message (Standard Webhooks); it is not shown again.',
  confirmTitle: (page: string) => `Confirm your subscription to ${page}`,
  confirmText:
    'Someone, hopefully you, asked to receive incident and maintenance notices of this status page at this address. Follow the link to confirm; without it nothing more is sent and the address is deleted within 48 hours.',
  confirmLink: 'Confirm the subscription',
  confirmQuestion: 'Confirm your subscription?',
  confirmButton: 'Confirm',
  confirmed: 'Subscription confirmed',
  confirmedText:
    'You will receive incident and maintenance notices of this page. Every message has an unsubscribe link.',
  linkInvalid: 'Link not valid',
  linkInvalidText: 'This link is not valid, has been used already, or its subscription has ended.',
  unsubscribeQuestion: 'Unsubscribe?',
  unsubscribeButton: 'Unsubscribe',
  unsubscribed: 'Unsubscribed',
  unsubscribedText: 'You will receive no more messages from this page, and your address has been deleted.',
  unsubscribeLink: 'Unsubscribe',
  viewPage: 'View the status page',
  subject: {
    'incident.opened': 'Incident',
    'incident.updated': 'Update',
    'incident.resolved': 'Resolved',
    'maintenance.scheduled': 'Scheduled maintenance',
    confirm: 'Confirm',
  },
  maintenanceText: (startsAt: string, endsAt: string) => `Scheduled from ${startsAt} to ${endsAt} (UTC).`,
  affects: 'Affects',
  formTitle: 'Get notified',
  formEmail: 'E-mail address',
  formComponents: 'Only these components (none ticked: all)',
  formButton: 'Subscribe',
  formAtom: 'or follow the Atom feed',
} as const
