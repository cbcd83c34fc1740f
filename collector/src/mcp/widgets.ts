import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

/** The widgets (MCP Apps) and the tool whose structuredContent each draws. */
export const WIDGETS = {
  dashboard: { uri: 'ui://guard/dashboard', title: 'Guard dashboard', tool: 'get_dashboard_stats' },
  incidents: { uri: 'ui://guard/incidents', title: 'Guard incidents', tool: 'list_incidents' },
  domains: { uri: 'ui://guard/domains', title: 'Guard domains', tool: 'get_domains_status' },
  heartbeats: { uri: 'ui://guard/heartbeats', title: 'Guard heartbeats', tool: 'get_heartbeats_status' },
} as const
export type WidgetName = keyof typeof WIDGETS

const assets = (name: string) => fileURLToPath(new URL(`../../assets/mcp-widgets/${name}`, import.meta.url))
const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`

let bundle: Promise<{ script: string; style: string }> | undefined

/** The view script with the ext-apps App bundled in, built once per process (tens of milliseconds). */
function widgetBundle() {
  bundle ??= (async () => {
    const [built, style] = await Promise.all([
      build({
        entryPoints: [assets('widget.js')],
        bundle: true,
        write: false,
        format: 'iife',
        minify: true,
        target: 'es2022',
        platform: 'browser',
        logLevel: 'silent',
      }),
      readFile(assets('widget.css'), 'utf8'),
    ])
    // `</script` cannot occur in a script element's text; the bundle never needs it literally.
    const script = built.outputFiles[0]!.text.replaceAll('</script', '<\\/script')
    return { script, style }
  })()
  bundle.catch(() => {
    bundle = undefined
  })
  return bundle
}

/**
 * A self-contained page: the script and the style inline, allowed by their hashes, and nothing
 * else: no network (connect-src, img-src limited to data:), no frames, no forms. Hosts add their
 * own sandbox; this policy holds even where they do not.
 */
export async function widgetHtml(name: WidgetName): Promise<string> {
  const { script, style } = await widgetBundle()
  const policy = [
    "default-src 'none'",
    `script-src ${sha256(script)}`,
    `style-src ${sha256(style)}`,
    'img-src data:',
    "connect-src 'none'",
    "frame-src 'none'",
    "form-action 'none'",
    "base-uri 'none'",
  ].join('; ')
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${policy}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${WIDGETS[name].title}</title>
<style>${style}</style>
</head>
<body data-widget="${name}">
<main id="root"><p class="empty">Waiting for the result…</p></main>
<script>${script}</script>
</body>
</html>
`
}
