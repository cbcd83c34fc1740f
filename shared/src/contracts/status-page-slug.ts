/** A status page's slug: lowercase letters, digits and single hyphens (3 to 64 characters). */
export const STATUS_PAGE_SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/

/** Slugs Guard keeps for its own pages. */
export const RESERVED_STATUS_PAGE_SLUGS: readonly string[] = ['api', 'admin', 'status', 'new', 'edit']
