import { selfSignedCertificate } from '../../probe/src/testing/certificate.ts'
import { startImapServer, startPop3Server, startSmtpServer } from '../../probe/src/testing/mail-servers.ts'
import { startSshServer } from '../../probe/src/testing/ssh-server.ts'

/**
 * The mail and SSH benchmark's servers, in a process of its own so their CPU time is not charged
 * to the checks measured. Prints their ports (and the SSH fingerprint) as one JSON line; ends with stdin.
 */
const certificate = await selfSignedCertificate('bench-mail')
const users = { bench: 'bench-password' }
const smtp = await startSmtpServer({ certificate, users })
const smtpPlain = await startSmtpServer({ certificate, startTls: false })
const imap = await startImapServer({ certificate, users })
const imapTls = await startImapServer({ certificate, users, implicitTls: true })
const pop3 = await startPop3Server({ certificate, users })
const ssh = await startSshServer()
// The IMAP and POP3 responders log every command; a benchmark's thousands need not be kept.
setInterval(() => {
  for (const server of [imap, imapTls, pop3]) server.commands.length = 0
}, 1000).unref()
process.stdout.write(
  `${JSON.stringify({
    smtp: smtp.port,
    smtpPlain: smtpPlain.port,
    imap: imap.port,
    imapTls: imapTls.port,
    pop3: pop3.port,
    ssh: ssh.port,
    sshFingerprint: ssh.fingerprint,
  })}\n`,
)
process.stdin.resume()
process.stdin.on('end', () => process.exit(0))
