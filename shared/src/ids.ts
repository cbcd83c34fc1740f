import { v7 } from 'uuid'

/** Sortable by creation time, so ids double as a stable order. */
export const newId = (): string => v7()
