import { createSocket } from 'node:dgram'
import dnsPacket, { type Answer } from 'dns-packet'

export interface DnsFixture {
  /** `127.0.0.1:<port>`, as a resolver's server address. */
  server: string
  close(): Promise<void>
}

/**
 * A tiny authoritative DNS server on 127.0.0.1 over UDP: answers from `zone` (name → answers),
 * NXDOMAIN for unknown names, and never answers names listed in `silent` (to test timeouts).
 */
export async function startDnsFixture(zone: Record<string, Answer[]>, silent: string[] = []): Promise<DnsFixture> {
  const socket = createSocket('udp4')
  socket.on('message', (message, remote) => {
    const query = dnsPacket.decode(message)
    const question = query.questions?.[0]
    if (!question || silent.includes(question.name)) return
    const known = zone[question.name]
    const answers = (known ?? []).filter((answer) => answer.type === question.type)
    const reply = dnsPacket.encode({
      id: query.id,
      type: 'response',
      flags: dnsPacket.AUTHORITATIVE_ANSWER | (known ? 0 : 3),
      questions: [question],
      answers,
    })
    socket.send(reply, remote.port, remote.address)
  })
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve))
  return {
    server: `127.0.0.1:${socket.address().port}`,
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  }
}
