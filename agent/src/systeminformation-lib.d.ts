// Types for the single modules of systeminformation (system-information.ts), from its index's.

declare module 'systeminformation/lib/cpu.js' {
  const cpu: Pick<typeof import('systeminformation'), 'currentLoad' | 'cpu'>
  export default cpu
}
declare module 'systeminformation/lib/memory.js' {
  const memory: Pick<typeof import('systeminformation'), 'mem'>
  export default memory
}
declare module 'systeminformation/lib/filesystem.js' {
  const filesystem: Pick<typeof import('systeminformation'), 'fsSize'>
  export default filesystem
}
declare module 'systeminformation/lib/network.js' {
  const network: Pick<typeof import('systeminformation'), 'networkStats' | 'networkConnections'>
  export default network
}
declare module 'systeminformation/lib/osinfo.js' {
  const osinfo: Pick<typeof import('systeminformation'), 'osInfo' | 'versions'>
  export default osinfo
}
declare module 'systeminformation/lib/processes.js' {
  const processes: Pick<typeof import('systeminformation'), 'processes'>
  export default processes
}
