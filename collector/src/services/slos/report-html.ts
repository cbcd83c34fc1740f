import { escapeHtml } from '../status-pages/render-html.ts'
import type { SloReport } from './report.ts'

const percent = (value: number | null) => (value === null ? '–' : `${value.toFixed(3)} %`)
const minutes = (value: number) => `${value.toFixed(1)} min`

/**
 * The report as a self-contained page that prints cleanly to PDF: no script, no external asset,
 * A4 landscape margins, rows never split across pages and the header repeated on each page.
 */
export function renderSloReportHtml(report: SloReport): string {
  const rows = report.slos
    .map(
      (slo) => `<tr class="${slo.met === false ? 'missed' : ''}">
  <td>${escapeHtml(slo.name)}</td><td>${escapeHtml(slo.subjectName)} <small>(${slo.subjectKind})</small></td>
  <td class="n">${slo.objective} %</td><td class="n">${percent(slo.sli)}</td>
  <td class="n">${slo.badMinutes}</td><td class="n">${minutes(slo.budgetMinutes)}</td>
  <td class="n">${minutes(slo.remainingMinutes)}</td><td class="n">${slo.remainingPercent.toFixed(1)} %</td>
  <td>${slo.met === null ? 'no data' : slo.met ? 'met' : 'missed'}</td>
</tr>`,
    )
    .join('\n')
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<title>SLO report ${escapeHtml(report.month)}</title>
<style>
  body { font: 13px/1.4 system-ui, sans-serif; color: #111; margin: 2rem; }
  h1 { font-size: 1.4rem; margin: 0 0 .25rem; }
  p.meta { color: #555; margin: 0 0 1rem; }
  table { border-collapse: collapse; width: 100%; }
  th, td { border-bottom: 1px solid #ccc; padding: .35rem .5rem; text-align: left; vertical-align: top; }
  th { background: #f3f3f3; }
  td.n { text-align: right; font-variant-numeric: tabular-nums; }
  tr.missed td { background: #fde8e8; }
  @page { size: A4 landscape; margin: 12mm; }
  @media print {
    body { margin: 0; }
    thead { display: table-header-group; }
    tr { break-inside: avoid; }
    th, tr.missed td { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
  }
</style></head>
<body>
<h1>SLO report ${escapeHtml(report.month)}</h1>
<p class="meta">${escapeHtml(report.from)} to ${escapeHtml(report.to)} (UTC) · ${report.totals.slos} SLOs · ${report.totals.met} met · ${report.totals.missed} missed. A minute is bad when the subject was down by the location quorum; maintenance is left out.</p>
<table>
<thead><tr><th>SLO</th><th>Subject</th><th>Objective</th><th>SLI</th><th>Bad minutes</th><th>Budget</th><th>Remaining</th><th>Remaining %</th><th>Result</th></tr></thead>
<tbody>
${rows || '<tr><td colspan="9">No SLO matches.</td></tr>'}
</tbody>
</table>
</body></html>
`
}
