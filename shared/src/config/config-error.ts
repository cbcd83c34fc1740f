/** A configuration that cannot start a process; the CLI prints its message and exits 78. */
export class ConfigError extends Error {
  override name = 'ConfigError'
}
