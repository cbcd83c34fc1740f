/**
 * The two messages of grpc.health.v1 (`HealthCheckRequest { string service = 1; }` and
 * `HealthCheckResponse { ServingStatus status = 1; }`) in protobuf wire format, written here
 * rather than loaded from a .proto file: that would load protobufjs into the probe for two
 * one-field messages.
 */

export const HEALTH_CHECK_METHOD = '/grpc.health.v1.Health/Check'

/** ServingStatus by its enum number; Check answers an unknown service with NOT_FOUND, Watch with SERVICE_UNKNOWN. */
const SERVING_STATUS = ['UNKNOWN', 'SERVING', 'NOT_SERVING', 'SERVICE_UNKNOWN'] as const
export type ServingStatus = (typeof SERVING_STATUS)[number] | `UNRECOGNIZED(${number})`

function varint(value: number): number[] {
  const bytes: number[] = []
  let rest = value
  while (rest > 0x7f) {
    bytes.push((rest & 0x7f) | 0x80)
    rest >>>= 7
  }
  bytes.push(rest)
  return bytes
}

export function encodeHealthCheckRequest(service: string): Buffer {
  if (service === '') return Buffer.alloc(0)
  const name = Buffer.from(service, 'utf8')
  return Buffer.concat([Buffer.from([0x0a, ...varint(name.length)]), name])
}

class MessageReader {
  offset = 0
  constructor(private readonly bytes: Buffer) {}

  get done() {
    return this.offset >= this.bytes.length
  }

  varint(): number {
    let value = 0
    for (let shift = 0; shift < 35; shift += 7) {
      const byte = this.bytes[this.offset++]
      if (byte === undefined) throw new Error('truncated health check response')
      value += (byte & 0x7f) * 2 ** shift
      if (byte < 0x80) return value
    }
    throw new Error('malformed varint in health check response')
  }

  skip(wireType: number) {
    if (wireType === 0) this.varint()
    else if (wireType === 1) this.offset += 8
    else if (wireType === 2) this.offset += this.varint()
    else if (wireType === 5) this.offset += 4
    else throw new Error(`unsupported wire type ${wireType} in health check response`)
    if (this.offset > this.bytes.length) throw new Error('truncated health check response')
  }
}

/** The status of a HealthCheckResponse; fields a newer server adds are skipped. */
export function decodeHealthCheckResponse(bytes: Buffer): ServingStatus {
  const reader = new MessageReader(bytes)
  let status = 0
  while (!reader.done) {
    const tag = reader.varint()
    if (tag === 0x08) status = reader.varint()
    else reader.skip(tag & 7)
  }
  return SERVING_STATUS[status] ?? `UNRECOGNIZED(${status})`
}
