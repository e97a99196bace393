// The team server's sign-in page: one static form, no script, posted to /login with the
// form's CSRF token. Served under the app's CSP with form-action 'self'.

/** Where the form is served and posted. */
export const LOGIN_PATH = '/login'

/** Escapes text for HTML content and attribute values. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

/** The sign-in page, with the form's CSRF token and, after a failed attempt, why. */
export function loginPage(options: { csrfToken: string; name?: string; notice?: string }): string {
  const notice = options.notice
    ? `<p class="notice" role="alert">${escapeHtml(options.notice)}</p>`
    : ''
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in · Heliograph</title>
<style>
  /* The app's own palette (src-renderer/app.css), light and dark. */
  :root { --bg: #f6f7f9; --panel: #fff; --text: #1b2128; --muted: #5d6b79;
    --border: #d8dee5; --accent: #d9822b; --danger: #c0392b; }
  @media (prefers-color-scheme: dark) {
    :root { --bg: #101418; --panel: #171c22; --text: #e6eaee; --muted: #93a1af;
      --border: #2a323b; --accent: #f0a04b; --danger: #ff8a7a; }
  }
  body { font: 15px/1.4 system-ui, sans-serif; background: var(--bg); color: var(--text);
    display: grid; place-items: center; min-height: 100vh; margin: 0; }
  form { background: var(--panel); border: 1px solid var(--border); padding: 2rem;
    border-radius: 8px; width: 20rem; display: grid; gap: 0.75rem; }
  h1 { font-size: 1.2rem; margin: 0 0 0.5rem; }
  label { display: grid; gap: 0.25rem; color: var(--muted); }
  input { font: inherit; padding: 0.45rem; border-radius: 4px; border: 1px solid var(--border);
    background: var(--panel); color: var(--text); }
  button { font: inherit; font-weight: 600; padding: 0.5rem; border-radius: 4px; border: 0;
    background: var(--accent); color: #fff; cursor: pointer; }
  .notice { color: var(--danger); margin: 0; }
</style>
</head>
<body>
<form method="post" action="${LOGIN_PATH}">
  <h1>☀ Sign in to Heliograph</h1>
  ${notice}
  <input type="hidden" name="csrf" value="${escapeHtml(options.csrfToken)}">
  <label>Name <input name="name" autocomplete="username" required value="${escapeHtml(options.name ?? '')}"></label>
  <label>Password <input name="password" type="password" autocomplete="current-password" required></label>
  <button type="submit">Sign in</button>
</form>
</body>
</html>
`
}
