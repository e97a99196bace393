/** The renderer's dev server URL that electron-vite passes while developing, if any. */
export function devServerUrl(env: Record<string, string | undefined>): string | undefined {
  return env.ELECTRON_RENDERER_URL
}
