import { createServer, type Socket } from 'node:net'
import { BSON, type Document } from 'mongodb'
import { closeServer, listenLocal } from './fixtures.ts'

/**
 * A MongoDB server as far as the wire protocol goes, for the MongoDB check's tests: a real mongod
 * comes from mongodb-memory-server, which downloads it from mongodb.org, and tests never leave the
 * machine. It answers the handshake (`hello`, `isMaster`), `ping`, `find` and `aggregate` (`$match`
 * on equal fields, `$limit`, `$count`, and the `$group` of `countDocuments`) over an in-memory
 * collection list, refuses every sign-in with AuthenticationFailed, and rejects filters with an
 * operator (`{ $where: … }`) as a real server rejects a bad query.
 */

const OP_REPLY = 1
const OP_QUERY = 2004
const OP_MSG = 2013
const HEADER_BYTES = 16

export interface MongoWireOptions {
  /** Documents by `database.collection`. */
  collections?: Record<string, Document[]>
}

const failure = (code: number, codeName: string, errmsg: string) => ({ ok: 0, code, codeName, errmsg })

const encoded = (value: unknown) => Buffer.from(BSON.serialize({ v: value }))

function matches(document: Document, filter: Document): boolean {
  return Object.entries(filter).every(([key, value]) => encoded(document[key]).equals(encoded(value)))
}

function badFilter(filter: Document | undefined): Document | undefined {
  const operator = Object.keys(filter ?? {}).find((key) => key.startsWith('$'))
  return operator ? failure(2, 'BadValue', `unknown top level operator: ${operator}`) : undefined
}

function runPipeline(documents: Document[], pipeline: Document[]): Document[] | Document {
  let rows = documents
  for (const stage of pipeline) {
    const [name, spec] = Object.entries(stage)[0] ?? []
    if (name === '$match') {
      const bad = badFilter(spec)
      if (bad) return bad
      rows = rows.filter((row) => matches(row, spec))
    } else if (name === '$limit') rows = rows.slice(0, Number(spec))
    else if (name === '$count') rows = rows.length > 0 ? [{ [String(spec)]: rows.length }] : []
    else if (name === '$group') {
      const [field] = Object.keys(spec).filter((key) => key !== '_id')
      rows = rows.length > 0 && field ? [{ _id: spec._id, [field]: rows.length }] : []
    } else return failure(40324, 'Location40324', `Unrecognized pipeline stage name: '${name}'`)
  }
  return rows
}

function answer(command: Document, collections: Record<string, Document[]>, sent: string[]): Document {
  const name = Object.keys(command)[0] ?? ''
  sent.push(name)
  const database = String(command.$db ?? 'admin')
  const cursor = (collection: string, firstBatch: Document[]) => ({
    cursor: { id: BSON.Long.fromNumber(0), ns: `${database}.${collection}`, firstBatch },
    ok: 1,
  })
  switch (name) {
    case 'hello':
    case 'isMaster':
    case 'ismaster':
      return {
        isWritablePrimary: true,
        ismaster: true,
        helloOk: true,
        maxBsonObjectSize: 16 * 1024 * 1024,
        maxMessageSizeBytes: 48_000_000,
        maxWriteBatchSize: 100_000,
        localTime: new Date(),
        logicalSessionTimeoutMinutes: 30,
        connectionId: 1,
        minWireVersion: 0,
        maxWireVersion: 21,
        ...(command.saslSupportedMechs ? { saslSupportedMechs: ['SCRAM-SHA-256'] } : {}),
        ok: 1,
      }
    case 'saslStart':
    case 'authenticate':
      return failure(18, 'AuthenticationFailed', 'Authentication failed.')
    case 'find': {
      const bad = badFilter(command.filter)
      if (bad) return bad
      const rows = (collections[`${database}.${command.find}`] ?? []).filter((row) =>
        matches(row, command.filter ?? {}),
      )
      return cursor(command.find, command.limit ? rows.slice(0, Number(command.limit)) : rows)
    }
    case 'aggregate': {
      const rows = runPipeline(collections[`${database}.${command.aggregate}`] ?? [], command.pipeline ?? [])
      return Array.isArray(rows) ? cursor(command.aggregate, rows) : rows
    }
    default:
      return { ok: 1 }
  }
}

function header(length: number, requestId: number, responseTo: number, opCode: number): Buffer {
  const bytes = Buffer.alloc(HEADER_BYTES)
  bytes.writeInt32LE(length, 0)
  bytes.writeInt32LE(requestId, 4)
  bytes.writeInt32LE(responseTo, 8)
  bytes.writeInt32LE(opCode, 12)
  return bytes
}

/** The command of one message and how to wrap the reply, or undefined for an opcode it does not speak. */
function readMessage(message: Buffer): { command: Document; reply: (document: Document) => Buffer } | undefined {
  const requestId = message.readInt32LE(4)
  const opCode = message.readInt32LE(12)
  if (opCode === OP_MSG) {
    // Flag bits, then section kind 0 (the body); kind-1 sections (document sequences) are not used here.
    const body = message.subarray(HEADER_BYTES + 5)
    const command = BSON.deserialize(body.subarray(0, body.readInt32LE(0)))
    return {
      command,
      reply: (document) => {
        const bson = BSON.serialize(document)
        const payload = Buffer.concat([Buffer.alloc(4), Buffer.from([0]), bson])
        return Buffer.concat([header(HEADER_BYTES + payload.length, 0, requestId, OP_MSG), payload])
      },
    }
  }
  if (opCode === OP_QUERY) {
    const nameEnd = message.indexOf(0, HEADER_BYTES + 4)
    const query = message.subarray(nameEnd + 1 + 8)
    const command = BSON.deserialize(query.subarray(0, query.readInt32LE(0)))
    return {
      command,
      reply: (document) => {
        const bson = BSON.serialize(document)
        const fields = Buffer.alloc(20)
        fields.writeInt32LE(1, 16)
        return Buffer.concat([header(HEADER_BYTES + 20 + bson.length, 0, requestId, OP_REPLY), fields, bson])
      },
    }
  }
  return undefined
}

export async function startMongoWire({ collections = {} }: MongoWireOptions = {}) {
  const sent: string[] = []
  const sockets = new Set<Socket>()
  const server = createServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => undefined)
    let pending = Buffer.alloc(0)
    socket.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk])
      while (pending.length >= 4 && pending.length >= pending.readInt32LE(0)) {
        const message = pending.subarray(0, pending.readInt32LE(0))
        pending = pending.subarray(message.length)
        const read = readMessage(message)
        if (!read) return socket.destroy()
        socket.write(read.reply(answer(read.command, collections, sent)))
      }
    })
  })
  const port = await listenLocal(server)
  return {
    port,
    /** Names of the commands received, in order. */
    sent,
    async close() {
      for (const socket of sockets) socket.destroy()
      await closeServer(server)
    },
  }
}
