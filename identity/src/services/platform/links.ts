/** Absolute addresses of the public documents, for the API index, llms.txt and the MCP tools. */
export function platformLinks(baseUrl: string) {
  return {
    self: `${baseUrl}/api/v1`,
    health: `${baseUrl}/api/v1/health`,
    plans: `${baseUrl}/api/v1/plans`,
    changelog: `${baseUrl}/api/v1/changelog`,
    openapi: `${baseUrl}/openapi.json`,
    llms: `${baseUrl}/llms.txt`,
    mcp: `${baseUrl}/mcp`,
    mcpHandshake: `${baseUrl}/.well-known/mcp`,
    openidConfiguration: `${baseUrl}/.well-known/openid-configuration`,
    oauthAuthorizationServer: `${baseUrl}/.well-known/oauth-authorization-server`,
    jwks: `${baseUrl}/.well-known/jwks.json`,
  }
}
