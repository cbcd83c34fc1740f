import { z } from 'zod'

const memoryFigure = z.object({ rssMb: z.number(), heapMb: z.number() })
export type MemoryFigure = z.infer<typeof memoryFigure>

/** What memory.ts prints: the process's memory after a full GC at each stage. */
export const memoryReport = z.object({
  /** Node and tsx alone, before any module of the probe. */
  runtime: memoryFigure,
  /** With run-check.ts, the checkers index and @guard/shared imported; no check run yet. */
  modulesLoaded: memoryFigure,
  /** After BENCH_CHECKS HTTP checks. */
  afterHttp: memoryFigure,
  /** At the end: after the HTTP checks, and in `all` mode one check of every case too. */
  final: memoryFigure,
  /** `all` mode: what each case's first check added to the figure before it, in the order run. */
  firstCheckAdds: z.record(z.string(), memoryFigure),
  /** Checks that did not come back up, with their error. */
  down: z.array(z.string()),
})
export type MemoryReport = z.infer<typeof memoryReport>
