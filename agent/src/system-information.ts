import cpu from 'systeminformation/lib/cpu.js'
import filesystem from 'systeminformation/lib/filesystem.js'
import memory from 'systeminformation/lib/memory.js'
import network from 'systeminformation/lib/network.js'
import osinfo from 'systeminformation/lib/osinfo.js'
import processes from 'systeminformation/lib/processes.js'

// The parts of systeminformation the agent calls, each from its own module: the package's index
// loads all twenty (docker, bluetooth, printers, wifi, …), whose source would stay in memory for
// as long as the agent runs (README "Devices and the agent", footprint).
export const si = { ...cpu, ...memory, ...filesystem, ...network, ...osinfo, ...processes }
