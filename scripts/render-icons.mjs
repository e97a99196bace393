// Renders resources/icon.svg to the PNG sizes Electron and Linux desktops use, with the
// Chromium the e2e tests use. Run after changing the SVG: `node scripts/render-icons.mjs`.
// The PNGs are committed, so neither the build nor packaging needs a browser.
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { chromium } from 'playwright-core'

const root = resolve(import.meta.dirname, '..')
const svg = readFileSync(resolve(root, 'resources/icon.svg'), 'utf8')
/** Linux hicolor sizes; 512 doubles as Electron's window icon and the packagers' source. */
const SIZES = [16, 32, 48, 64, 128, 256, 512]

const browser = await chromium.launch({
  executablePath: process.env.HELIOGRAPH_CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox'],
})
try {
  for (const size of SIZES) {
    const page = await browser.newPage({ viewport: { width: size, height: size } })
    await page.setContent(
      `<html><body style="margin:0;background:transparent">${svg.replace('<svg ', `<svg style="display:block;width:${size}px;height:${size}px" `)}</body></html>`,
    )
    const out = resolve(root, `resources/icons/${size}x${size}.png`)
    await page.screenshot({ path: out, omitBackground: true })
    await page.close()
    console.log(out)
  }
} finally {
  await browser.close()
}
