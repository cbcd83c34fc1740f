import { useCallback, useState } from 'preact/hooks'

/**
 * One write started by a button (acknowledge, delete, mark read): its pending state, and its
 * error kept for the screen to show in words. Forms use `Form`, which does the same for a submit.
 */
export function useAction(): {
  busy: boolean
  error: unknown
  run: <T>(action: () => Promise<T>) => Promise<T | undefined>
  clear: () => void
} {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>(undefined)
  const run = useCallback(async <T>(action: () => Promise<T>) => {
    setBusy(true)
    setError(undefined)
    try {
      return await action()
    } catch (caught) {
      setError(caught)
      return undefined
    } finally {
      setBusy(false)
    }
  }, [])
  const clear = useCallback(() => setError(undefined), [])
  return { busy, error, run, clear }
}
