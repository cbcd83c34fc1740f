import { createSocket } from 'node:dgram'

export interface UdpFixture {
  port: number
  /** Every datagram received, in order. */
  received: Buffer[]
  close(): Promise<void>
}

/**
 * A UDP server on 127.0.0.1 that answers each datagram with `answer(datagram)`, or stays silent
 * when it returns undefined. The default answer echoes the datagram back.
 */
export async function startUdpServer(
  answer: (datagram: Buffer) => Buffer | string | undefined = (datagram) => datagram,
): Promise<UdpFixture> {
  const socket = createSocket('udp4')
  const received: Buffer[] = []
  socket.on('message', (datagram, remote) => {
    received.push(datagram)
    const reply = answer(datagram)
    if (reply !== undefined) socket.send(reply, remote.port, remote.address)
  })
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve))
  return {
    port: socket.address().port,
    received,
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  }
}

/** A UDP port nothing listens on: bound a moment ago, then released. */
export async function closedUdpPort(): Promise<number> {
  const fixture = await startUdpServer()
  await fixture.close()
  return fixture.port
}
