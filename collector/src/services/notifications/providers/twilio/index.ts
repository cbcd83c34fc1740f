import { truncateText } from '@guard/shared'
import { z } from 'zod'
import { type Alert, defineHttpProvider, headline, httpUrl, joinUrl } from '../provider.ts'

const clip = (value: string, max: number) => (value.length > max ? `${truncateText(value, max - 1)}…` : value)
const oneLine = (value: string) => value.replace(/\s+/g, ' ').trim()

const e164 = z.string().regex(/^\+[1-9]\d{6,14}$/, 'must be a phone number in E.164 form (+14155552671)')

/**
 * The SMS text: the headline on one line and the links, never over the 1600 characters Twilio's
 * Messages resource takes; short, as every 153 (or 67 with non-GSM characters) is another segment.
 */
export function smsBody(alert: Alert): string {
  const links = [alert.link, ...(alert.acknowledgeUrl ? [`Ack: ${alert.acknowledgeUrl}`] : [])]
  const summary = alert.kind === 'digest' ? `${alert.title} (${alert.items?.length ?? 0} alerts)` : headline(alert)
  return clip([clip(oneLine(`Guard: ${summary}`), 300), ...links].join('\n'), 1600)
}

/**
 * One phone number per channel, so one request per alert: Twilio's Messages API takes no
 * idempotency key, and a retry of a send to several numbers would text again those already reached.
 */
export const twilio = defineHttpProvider({
  id: 'twilio',
  label: 'SMS (Twilio)',
  description:
    'An SMS to one phone number through Twilio (the headline and a link; an acknowledge link while it can be acknowledged). Add a channel per number.',
  config: z
    .strictObject({
      apiUrl: httpUrl.default('https://api.twilio.com').describe('Twilio REST API base URL'),
      accountSid: z
        .string()
        .regex(/^AC[0-9a-f]{32}$/, 'must be a Twilio Account SID (AC…)')
        .describe('Your Twilio Account SID (AC…)'),
      authToken: z.string().trim().min(1).max(200).describe('The account’s Auth Token'),
      to: e164.describe('The phone number to text, in E.164 form (+14155552671)'),
      from: z
        .string()
        .regex(/^(\+[1-9]\d{6,14}|[A-Za-z0-9 ]{1,11})$/, 'must be an E.164 number or an alphanumeric sender ID')
        .optional()
        .describe('A Twilio number (E.164) or alphanumeric sender ID to send from; or set messagingServiceSid'),
      messagingServiceSid: z
        .string()
        .regex(/^MG[0-9a-f]{32}$/, 'must be a Messaging Service SID (MG…)')
        .optional()
        .describe('A Messaging Service (MG…) that picks the sender, instead of from'),
    })
    .superRefine((config, ctx) => {
      if (Boolean(config.from) === Boolean(config.messagingServiceSid)) {
        ctx.addIssue({ code: 'custom', path: ['from'], message: 'set either from or messagingServiceSid' })
      }
    }),
  secretFields: ['authToken'],
  urlFields: ['apiUrl'],
  request: (alert, config) => ({
    method: 'POST',
    url: joinUrl(config.apiUrl, `/2010-04-01/Accounts/${config.accountSid}/Messages.json`),
    headers: { authorization: `Basic ${Buffer.from(`${config.accountSid}:${config.authToken}`).toString('base64')}` },
    form: {
      To: config.to,
      ...(config.messagingServiceSid ? { MessagingServiceSid: config.messagingServiceSid } : { From: config.from! }),
      Body: smsBody(alert),
    },
  }),
})
