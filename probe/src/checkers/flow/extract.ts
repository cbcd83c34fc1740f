import type { IncomingHttpHeaders } from 'node:http'
import type { FlowExtraction } from '@guard/shared'
import { JSONPath } from 'jsonpath-plus'
import { FlowVariableError } from './template.ts'

export interface Answer {
  statusCode: number
  headers: IncomingHttpHeaders
  body: Buffer
}

const asText = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value))

function extractOne(extraction: FlowExtraction, answer: Answer): string | undefined {
  switch (extraction.from) {
    case 'status':
      return String(answer.statusCode)
    case 'header': {
      const value = answer.headers[extraction.header.toLowerCase()]
      return Array.isArray(value) ? value[0] : value
    }
    case 'regex': {
      const match = new RegExp(extraction.pattern).exec(answer.body.toString('utf8'))
      return match ? (match[1] ?? match[0]) : undefined
    }
    case 'json': {
      let json: unknown
      try {
        json = JSON.parse(answer.body.toString('utf8'))
      } catch {
        return undefined
      }
      const found = JSONPath({ path: extraction.path, json: json as object, wrap: true }) as unknown[]
      return found.length > 0 && found[0] !== undefined && found[0] !== null ? asText(found[0]) : undefined
    }
  }
}

/** The step's extractions as variables; one that finds nothing fails the step, naming it. */
export function extractVariables(extractions: readonly FlowExtraction[], answer: Answer): Map<string, string> {
  const variables = new Map<string, string>()
  for (const extraction of extractions) {
    const value = extractOne(extraction, answer)
    if (value === undefined) {
      const where = extraction.from === 'json' ? ` at ${extraction.path}` : ''
      throw new FlowVariableError(`extracting ${extraction.name} from the ${extraction.from}${where} found nothing`)
    }
    variables.set(extraction.name, value)
  }
  return variables
}
