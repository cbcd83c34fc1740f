import { useEffect, useRef, useState } from 'preact/hooks'
import { ApiError, api, type Envelope } from '../api.ts'
import { Field, Form } from '../components/form.tsx'
import { Empty, ErrorText } from '../components/status.tsx'
import { Table } from '../components/table.tsx'
import './screens.css'

const RECORD_TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'NS', 'SOA', 'SRV', 'CAA'] as const
const SCAN_TYPES = [
  ['quick', 'Quick (about 100 most used ports)'],
  ['common', 'Common (1–1024)'],
  ['full', 'Full (1–65535)'],
  ['custom', 'These ports…'],
] as const

interface DnsAnswer {
  domain: string
  records: Array<{ type: string; name: string; value: string; ttl: number | null }>
  total: number
}
interface IpAnswer {
  ip: string
  country: string | null
  city: string | null
  region: string | null
  isp: string | null
  organization: string | null
}
type ScanLine =
  | { type: 'progress'; progress: number }
  | { type: 'result'; results: { openPorts: number[]; totalScanned: number } }
  | { type: 'error'; error: string; message: string }

export default function Toolbox() {
  return (
    <section class="screen">
      <header class="page-head">
        <h1>Toolbox</h1>
      </header>
      <p class="muted">One-off checks, run from a probe like the monitors are.</p>
      <div class="toolbox">
        <div class="grid-2">
          <DnsLookup />
          <IpLookup />
        </div>
        <PortScan />
      </div>
    </section>
  )
}

function DnsLookup() {
  const [domain, setDomain] = useState('')
  const [type, setType] = useState('A')
  const [answer, setAnswer] = useState<DnsAnswer | undefined>(undefined)
  const submit = async () => {
    setAnswer(undefined)
    const body = await api.post<Envelope<DnsAnswer>>('/api/toolbox/dns-lookup', {
      domain: domain.trim(),
      record_type: type,
    })
    setAnswer(body.data)
  }
  return (
    <section class="card" aria-labelledby="dns-title">
      <h2 id="dns-title">DNS lookup</h2>
      <Form onSubmit={submit} submitLabel="Look up" busyLabel="Looking up…">
        <div class="row">
          <Field label="Name">
            {(id) => (
              <input
                id={id}
                required
                maxLength={253}
                placeholder="example.com"
                value={domain}
                onInput={(e) => setDomain(e.currentTarget.value)}
              />
            )}
          </Field>
          <Field label="Record type">
            {(id) => (
              <select id={id} value={type} onChange={(e) => setType(e.currentTarget.value)}>
                {RECORD_TYPES.map((value) => (
                  <option key={value}>{value}</option>
                ))}
              </select>
            )}
          </Field>
        </div>
      </Form>
      <div aria-live="polite">
        {answer ? (
          answer.records.length === 0 ? (
            <Empty title={`No ${type} records for ${answer.domain}`} />
          ) : (
            <Table
              caption={`${type} records of ${answer.domain}`}
              rows={answer.records}
              rowKey={(record) => `${record.type}:${record.name}:${record.value}`}
              columns={[
                { header: 'Type', cell: (record) => record.type },
                { header: 'Value', cell: (record) => <code>{record.value}</code> },
                { header: 'TTL', align: 'right', cell: (record) => (record.ttl === null ? '—' : `${record.ttl} s`) },
              ]}
            />
          )
        ) : null}
      </div>
    </section>
  )
}

function IpLookup() {
  const [ip, setIp] = useState('')
  const [answer, setAnswer] = useState<IpAnswer | undefined>(undefined)
  const submit = async () => {
    setAnswer(undefined)
    const body = await api.post<Envelope<IpAnswer>>('/api/toolbox/ip-scanner', { ip: ip.trim() })
    setAnswer(body.data)
  }
  const facts: Array<[string, string | null]> = answer
    ? [
        ['Address', answer.ip],
        ['Country', answer.country],
        ['Region', answer.region],
        ['City', answer.city],
        ['Network (ISP)', answer.isp],
        ['Organization', answer.organization],
      ]
    : []
  return (
    <section class="card" aria-labelledby="ip-title">
      <h2 id="ip-title">IP lookup</h2>
      <Form onSubmit={submit} submitLabel="Look up" busyLabel="Looking up…">
        <Field label="IP address or host name">
          {(id) => (
            <input
              id={id}
              required
              maxLength={253}
              placeholder="203.0.113.7"
              value={ip}
              onInput={(e) => setIp(e.currentTarget.value)}
            />
          )}
        </Field>
      </Form>
      <div aria-live="polite">
        {answer ? (
          <dl class="facts">
            {facts.map(([label, value]) => (
              <>
                <dt key={`${label}-t`}>{label}</dt>
                <dd key={`${label}-d`}>{value ?? <span class="muted">unknown</span>}</dd>
              </>
            ))}
          </dl>
        ) : null}
      </div>
    </section>
  )
}

function PortScan() {
  const [target, setTarget] = useState('')
  const [scanType, setScanType] = useState<string>('quick')
  const [ports, setPorts] = useState('')
  const [timeout, setTimeoutMs] = useState('1000')
  const [progress, setProgress] = useState<number | undefined>(undefined)
  const [result, setResult] = useState<{ openPorts: number[]; totalScanned: number } | undefined>(undefined)
  const [scanError, setScanError] = useState<ApiError | undefined>(undefined)
  const [running, setRunning] = useState(false)
  const cancel = useRef<AbortController | undefined>(undefined)

  // Leaving the screen stops the scan on the probe (the server cancels when the connection closes).
  useEffect(() => () => cancel.current?.abort(), [])

  const submit = async () => {
    const controller = new AbortController()
    cancel.current = controller
    setResult(undefined)
    setScanError(undefined)
    setProgress(0)
    setRunning(true)
    const body: Record<string, unknown> = { target: target.trim(), protocol: 'tcp', timeout: Number(timeout) }
    if (scanType === 'custom') body.ports = ports.trim()
    else body.scanType = scanType
    try {
      await api.stream<ScanLine>(
        '/api/toolbox/port-scanner',
        body,
        (line) => {
          if (line.type === 'progress') setProgress(line.progress)
          else if (line.type === 'result') {
            setProgress(100)
            setResult(line.results)
          } else setScanError(new ApiError(200, line.error, line.message))
        },
        controller.signal,
      )
    } catch (caught) {
      if (controller.signal.aborted) return
      // Refused before the scan started (bad input, target guard): the form shows it and keeps its input.
      setProgress(undefined)
      throw caught
    } finally {
      setRunning(false)
    }
  }

  return (
    <section class="card" aria-labelledby="scan-title">
      <h2 id="scan-title">Port scan</h2>
      <Form onSubmit={submit} submitLabel="Scan" busyLabel="Scanning…">
        <div class="row">
          <Field label="Host">
            {(id) => (
              <input
                id={id}
                required
                maxLength={253}
                placeholder="example.com"
                value={target}
                onInput={(e) => setTarget(e.currentTarget.value)}
              />
            )}
          </Field>
          <Field label="Ports">
            {(id) => (
              <select id={id} value={scanType} onChange={(e) => setScanType(e.currentTarget.value)}>
                {SCAN_TYPES.map(([value, label]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </select>
            )}
          </Field>
          {scanType === 'custom' ? (
            <Field label="Port list" hint="e.g. 22,80,8000-8100">
              {(id, describedBy) => (
                <input
                  id={id}
                  aria-describedby={describedBy}
                  required
                  value={ports}
                  onInput={(e) => setPorts(e.currentTarget.value)}
                />
              )}
            </Field>
          ) : null}
          <Field label="Timeout per port (ms)">
            {(id) => (
              <input
                id={id}
                type="number"
                min={50}
                max={10000}
                step={50}
                value={timeout}
                onInput={(e) => setTimeoutMs(e.currentTarget.value)}
              />
            )}
          </Field>
        </div>
      </Form>
      {running ? (
        <button type="button" onClick={() => cancel.current?.abort()}>
          Stop
        </button>
      ) : null}
      <div class="scan-progress" hidden={progress === undefined}>
        <label for="scan-progress-bar">Progress</label>
        <progress id="scan-progress-bar" max={100} value={progress ?? 0}>
          {Math.round(progress ?? 0)} %
        </progress>
        <span aria-live="polite">{Math.round(progress ?? 0)} %</span>
      </div>
      {scanError ? <ErrorText error={scanError} /> : null}
      <div aria-live="polite">
        {result ? (
          <div class="scan-result">
            <p>
              <strong>{result.openPorts.length}</strong> open of {result.totalScanned} scanned
            </p>
            {result.openPorts.length > 0 ? (
              <ul class="ports">
                {result.openPorts.map((port) => (
                  <li key={port}>
                    <code>{port}</code>
                  </li>
                ))}
              </ul>
            ) : null}
          </div>
        ) : null}
      </div>
    </section>
  )
}
