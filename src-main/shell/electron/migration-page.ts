/** The size of the window that shows the page (its text fits it, title bar and all). */
export const MIGRATION_WINDOW_SIZE = { width: 560, height: 220 } as const

/**
 * The page that shows `text`: static HTML with no script, nothing loaded from anywhere.
 *
 * @example
 * migrationPage('Updating…') // 'data:text/html;charset=utf-8,%3C!doctype%20html%3E…'
 */
export function migrationPage(text: string): string {
  const escaped = text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
  const html =
    '<!doctype html><meta charset="utf-8">' +
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">` +
    '<title>Heliograph</title>' +
    '<style>body{font:14px/1.5 system-ui,sans-serif;margin:24px;color:#1f2328;background:#fff}</style>' +
    `<p>${escaped}</p>`
  return `data:text/html;charset=utf-8,${encodeURIComponent(html)}`
}
