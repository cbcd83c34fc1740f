import { GuardError, type Logger, type Sql } from '@guard/shared'
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js'
import { type ZodObject, type ZodRawShape, z } from 'zod'
import { developerDocsInput, developerDocsOutput, getDeveloperDocs } from '../services/platform/get-developer-docs.ts'
import { getOverview, overviewOutput } from '../services/platform/get-overview.ts'
import { getWhenToUse, whenToUseInput, whenToUseOutput } from '../services/platform/get-when-to-use.ts'
import { listProducts, listProductsInput, listProductsOutput } from '../services/platform/list-products.ts'

export interface ToolDeps {
  sql: Sql
  log: Logger
  baseUrl: string
}

interface PlatformTool<I extends ZodRawShape, O extends ZodObject> {
  name: string
  title: string
  description: string
  input: I
  output: O
  run(input: z.infer<ZodObject<I>>, deps: ToolDeps): Promise<z.infer<O>> | z.infer<O>
}

/** Every platform tool only reads public documents: nothing it does changes state or reaches outside. */
export const READ_ONLY: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
}

const tool = <I extends ZodRawShape, O extends ZodObject>(definition: PlatformTool<I, O>) => definition

/** The tools are thin adapters: each calls one platform service and returns its result as is. */
export const platformTools = [
  tool({
    name: 'platform_get_overview',
    title: 'Guard overview',
    description:
      'What Guard is: a summary, its products, the plans on sale, the latest release of each product and where the API documents are.',
    input: {},
    output: overviewOutput,
    run: (_input, deps) => getOverview(deps),
  }),
  tool({
    name: 'platform_get_developer_docs',
    title: 'Developer documentation',
    description:
      'One page of the developer documentation (Markdown) by topic, with the list of topics and links to OpenAPI and llms.txt.',
    input: developerDocsInput,
    output: developerDocsOutput,
    run: (input, deps) => getDeveloperDocs(input, deps.baseUrl),
  }),
  tool({
    name: 'platform_list_products',
    title: 'Products and plans',
    description:
      "Guard's products with their latest version, and the plans, add-ons and bundles of the public catalog.",
    input: listProductsInput,
    output: listProductsOutput,
    run: (input, deps) => listProducts(deps, input),
  }),
  tool({
    name: 'platform_get_when_to_use',
    title: 'When to use which product',
    description: 'Guidance on which Guard product fits a need, for one product slug or all of them.',
    input: whenToUseInput,
    output: whenToUseOutput,
    run: (input) => getWhenToUse(input),
  }),
]

/** structuredContent for clients that read the output schema, the same JSON as text for those that do not. */
const structured = (value: Record<string, unknown>): CallToolResult => ({
  structuredContent: value,
  content: [{ type: 'text', text: JSON.stringify(value, null, 2) }],
})

/** A refused call (unknown product or topic) is a tool error the model can read and correct, not a protocol error. */
function toolError(error: unknown): CallToolResult {
  if (!(error instanceof GuardError)) throw error
  const hint = typeof error.details?.hint === 'string' ? ` (${error.details.hint})` : ''
  return { isError: true, content: [{ type: 'text', text: `${error.code}: ${error.message}${hint}` }] }
}

export function registerPlatformTools(server: McpServer, deps: ToolDeps): void {
  for (const definition of platformTools) {
    // The list mixes tool types; the SDK checks each call's arguments against that tool's own input
    // schema before `run`, so widening here loses no safety.
    const { name, title, description, input, output } = definition as PlatformTool<ZodRawShape, ZodObject>
    const run = definition.run as (input: Record<string, unknown>, deps: ToolDeps) => Promise<object> | object
    server.registerTool(
      name,
      { title, description, inputSchema: input, outputSchema: output, annotations: READ_ONLY },
      async (args: Record<string, unknown>) => {
        try {
          return structured((await run(args, deps)) as Record<string, unknown>)
        } catch (error) {
          return toolError(error)
        }
      },
    )
  }
}

/** The tools as tools/list describes them, for the handshake document. */
export const describePlatformTools = () =>
  platformTools.map((definition) => ({
    name: definition.name,
    title: definition.title,
    description: definition.description,
    inputSchema: z.toJSONSchema(z.object(definition.input as ZodRawShape)),
    outputSchema: z.toJSONSchema(definition.output as ZodObject),
    annotations: READ_ONLY,
  }))
