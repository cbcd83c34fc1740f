import { readFile } from 'node:fs/promises'

const MB = 1024 * 1024

/**
 * A process's resident memory from /proc, split by what it maps: chDB's library (file pages the
 * kernel may drop and read again), Node's own binary, malloc's main heap and every anonymous
 * mapping (the JavaScript heap, PGlite's WebAssembly memory, thread arenas and stacks).
 */
export async function processMemory(pid: number) {
  const [status, smaps] = await Promise.all([
    readFile(`/proc/${pid}/status`, 'utf8'),
    readFile(`/proc/${pid}/smaps`, 'utf8'),
  ])
  const kB = (field: string) => Number(status.match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'))?.[1] ?? 0) * 1024
  const split = { chdbLibrary: 0, nodeBinary: 0, mallocHeap: 0, anonymous: 0, otherFiles: 0 }
  let mapping = ''
  for (const line of smaps.split('\n')) {
    const header = line.match(/^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/)
    if (header) {
      mapping = header[1] ?? ''
      continue
    }
    const rss = line.match(/^Rss:\s+(\d+) kB/)
    if (!rss) continue
    const bytes = Number(rss[1]) * 1024
    if (mapping === '') split.anonymous += bytes
    else if (mapping.includes('libchdb')) split.chdbLibrary += bytes
    else if (/\/node$/.test(mapping)) split.nodeBinary += bytes
    else if (mapping === '[heap]') split.mallocHeap += bytes
    else split.otherFiles += bytes
  }
  const round = (bytes: number) => Math.round(bytes / MB)
  return {
    rssMB: round(kB('VmRSS')),
    peakRssMB: round(kB('VmHWM')),
    threads: Number(status.match(/^Threads:\s+(\d+)/m)?.[1] ?? 0),
    chdbLibraryMB: round(split.chdbLibrary),
    nodeBinaryMB: round(split.nodeBinary),
    mallocHeapMB: round(split.mallocHeap),
    anonymousMB: round(split.anonymous),
    otherFilesMB: round(split.otherFiles),
  }
}
