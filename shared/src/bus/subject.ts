/** NATS subject matching: `*` stands for one token, a trailing `>` for one or more. */
export function subjectMatches(pattern: string, subject: string): boolean {
  const wanted = pattern.split('.')
  const actual = subject.split('.')
  for (let i = 0; i < wanted.length; i++) {
    const token = wanted[i]
    if (token === '>') return i === wanted.length - 1 && actual.length > i
    if (i >= actual.length) return false
    if (token !== '*' && token !== actual[i]) return false
  }
  return wanted.length === actual.length
}
