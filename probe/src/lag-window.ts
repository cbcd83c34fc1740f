/** The most recent schedule lags, for the percentiles the heartbeat reports. */
export class LagWindow {
  private readonly values: number[] = []
  private next = 0

  constructor(private readonly size = 1000) {}

  add(lagMs: number): void {
    if (this.values.length < this.size) this.values.push(lagMs)
    else this.values[this.next] = lagMs
    this.next = (this.next + 1) % this.size
  }

  percentile(p: number): number {
    if (this.values.length === 0) return 0
    const sorted = [...this.values].sort((a, b) => a - b)
    return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0
  }
}
