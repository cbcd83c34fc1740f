export { jsonRpcRequest, jsonRpcResponse, readMessage, rpcError, serveStateless, takeMcpBodyAsText } from './http.ts'
export { originAllowed } from './origin.ts'
