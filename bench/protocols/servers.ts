import { selfSignedCertificate } from '../../probe/src/testing/certificate.ts'
import { startGrpcHealthServer } from '../../probe/src/testing/grpc-server.ts'
import { startMqttBroker } from '../../probe/src/testing/mqtt-broker.ts'
import { startWebSocketServer } from '../../probe/src/testing/websocket-server.ts'

/**
 * The protocol benchmark's servers, in a process of its own so their CPU time is not charged to
 * the checks measured. Prints their ports as one JSON line once all listen; ends with stdin.
 */
const certificate = await selfSignedCertificate('bench-protocols')
const grpc = await startGrpcHealthServer()
const grpcTls = await startGrpcHealthServer(certificate)
const websocket = await startWebSocketServer()
const websocketTls = await startWebSocketServer({ certificate })
const mqtt = await startMqttBroker()
const mqttTls = await startMqttBroker({ certificate })
for (const broker of [mqtt, mqttTls]) await broker.publish('bench/state', 'status=ok', true)
process.stdout.write(
  `${JSON.stringify({
    grpc: grpc.port,
    grpcTls: grpcTls.port,
    websocket: websocket.port,
    websocketTls: websocketTls.port,
    mqtt: mqtt.port,
    mqttTls: mqttTls.port,
  })}\n`,
)
process.stdin.resume()
process.stdin.on('end', () => process.exit(0))
