import { buildCollectorApp } from '../../collector/src/app.ts'
import { createMailer, sendEmail } from '../../collector/src/services/notifications/send.ts'
import {
  collectorForTest,
  eventsSettled,
  startReactionsForTest,
  startSmtpSink,
} from '../../collector/src/test-support.ts'

/**
 * bench/subscribers: time to notify BENCH_SUBSCRIBERS (10,000) confirmed e-mail subscribers of
 * one status page of one incident update, from the API call to the last mail accepted by a local
 * SMTP sink (smtp-server), embedded stores (PGlite, in-process bus), the delivery worker as shipped
 * (50 deliveries per pass, one SMTP connection per mail; BENCH_SMTP_POOL=1 pools them). Addresses spread over BENCH_DOMAINS (500)
 * domains, so the per-domain pacing (20 a second by default) holds nobody back; the ceiling is a
 * bare loop sending the same number of mails to the same sink through the same transport, 50 at a time.
 */
const subscribers = Number(process.env.BENCH_SUBSCRIBERS ?? 10_000)
const domains = Number(process.env.BENCH_DOMAINS ?? 500)
/** `1`: the operator's choice of a pooled SMTP transport (`?pool=true` in GUARD_SMTP_URL), for both sides. */
const pooled = process.env.BENCH_SMTP_POOL === '1'
const round = (value: number) => Math.round(value * 10) / 10

async function main() {
  const smtp = await startSmtpSink()
  const smtpUrl = pooled ? `${smtp.url}/?pool=true` : smtp.url
  const harness = await collectorForTest({
    GUARD_SMTP_URL: smtpUrl,
    GUARD_PUBLIC_URL: 'http://status.bench',
    GUARD_DELIVERY_POLL_MS: '50',
  })
  const app = await buildCollectorApp(harness.ctx)
  const headers = { authorization: `Bearer ${harness.apiKey}` }
  const post = async (url: string, payload: object) =>
    (await app.inject({ method: 'POST', url, headers, payload })).json().data
  const domain = (await post('/api/domains', { url: 'https://shop.example', name: 'Shop' })).id
  const page = await post('/api/status-pages', { name: 'Bench', slug: 'bench', isPublic: true })
  await post(`/api/status-pages/${page.id}/domains`, { domainId: domain })
  // Opened before anyone subscribes, so only the measured update is sent to the subscribers.
  const incident = await post('/api/incidents', { title: 'Checkout errors', affectedDomains: [domain] })
  const reactions = await startReactionsForTest(harness.ctx)
  await eventsSettled(harness.ctx, 120_000)
  const emails = Array.from({ length: subscribers }, (_, index) => `s${index}@d${index % domains}.example`)
  const importStarted = performance.now()
  const imported = await post(`/api/status-pages/${page.id}/subscribers/import`, { emails })
  const importMs = performance.now() - importStarted
  const deadline = Date.now() + 30 * 60_000

  const started = performance.now()
  await post(`/api/incidents/${incident.id}/updates`, { message: 'A fix is rolling out', status: 'monitoring' })
  await eventsSettled(harness.ctx, 120_000)
  const queuedMs = performance.now() - started
  while (smtp.messages.length < subscribers && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
  const deliveredMs = performance.now() - started
  const received = smtp.messages.length
  await reactions.stop()

  smtp.messages.length = 0
  const mailer = createMailer(smtpUrl)
  const bareStarted = performance.now()
  for (let offset = 0; offset < subscribers; offset += 50) {
    await Promise.all(
      emails.slice(offset, offset + 50).map((to, index) =>
        sendEmail(mailer, 'Guard <guard@localhost>', `bare-${offset + index}`, {
          to: [to],
          subject: '[Bench] Update: Checkout errors',
          text: 'A fix is rolling out',
          html: '<p>A fix is rolling out</p>',
          headers: {
            'List-Unsubscribe': '<http://status.bench/x>',
            'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
          },
        }),
      ),
    )
  }
  const bareMs = performance.now() - bareStarted
  mailer.close()

  const figures = {
    subscribers,
    domains,
    pooled,
    imported,
    importMs: round(importMs),
    received,
    queuedMs: round(queuedMs),
    deliveredMs: round(deliveredMs),
    mailsPerSecond: round(received / (deliveredMs / 1000)),
    bareLoop: { ms: round(bareMs), mailsPerSecond: round(subscribers / (bareMs / 1000)) },
    ratioToBareLoop: Math.round((bareMs / deliveredMs) * 100) / 100,
    loadavg: (await import('node:fs')).readFileSync('/proc/loadavg', 'utf8').trim(),
  }
  console.log(JSON.stringify(figures, null, 2))
  await app.close()
  await harness.close()
  await smtp.close()
}

await main()
