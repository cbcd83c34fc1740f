import { useCallback, useEffect, useRef, useState } from 'preact/hooks'

export interface Resource<T> {
  data: T | undefined
  error: unknown
  loading: boolean
  /** Reads again; the current data stays on screen while it does (no flash). */
  reload: () => void
}

/** Runs `load` when `deps` change and on `reload()`, keeping the last data while reloading. */
export function useResource<T>(load: () => Promise<T>, deps: unknown[]): Resource<T> {
  const [data, setData] = useState<T | undefined>(undefined)
  const [error, setError] = useState<unknown>(undefined)
  const [loading, setLoading] = useState(true)
  const [tick, setTick] = useState(0)
  const generation = useRef(0)
  const loader = useRef(load)
  loader.current = load
  useEffect(() => {
    const mine = ++generation.current
    setLoading(true)
    loader
      .current()
      .then((value) => {
        if (generation.current !== mine) return
        setData(value)
        setError(undefined)
      })
      .catch((caught: unknown) => {
        if (generation.current === mine) setError(caught)
      })
      .finally(() => {
        if (generation.current === mine) setLoading(false)
      })
  }, [...deps, tick])
  const reload = useCallback(() => setTick((value) => value + 1), [])
  return { data, error, loading, reload }
}

/** Reloads `reload` every `seconds` while the tab is visible, so charts follow new checks. */
export function usePolling(reload: () => void, seconds: number) {
  useEffect(() => {
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') reload()
    }, seconds * 1000)
    return () => clearInterval(timer)
  }, [seconds])
}
