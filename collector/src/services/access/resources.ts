/**
 * Resources a permission can name (`*` stands for all of them) and its actions. Dependency-free:
 * the console's API key form imports this module too, so it always offers what the API accepts.
 */
export const RESOURCES = [
  'domains',
  'services',
  'heartbeats',
  /** Synthetic checks: multi-step API flows (and, later, browser journeys). */
  'synthetics',
  'devices',
  /** Groups of monitors and devices; their members' own permissions are not needed to group them. */
  'groups',
  'metrics',
  'incidents',
  'notifications',
  'integrations',
  'status-pages',
  'reports',
  /** DNS lookups, port scans and IP geolocation run on probes; they change nothing, so `read`. */
  'toolbox',
  /** Monitoring as code: `read` plans and exports guard.yaml, `write` applies it (README "Monitoring as code"). */
  'config',
] as const
export const ACTIONS = ['read', 'write'] as const
