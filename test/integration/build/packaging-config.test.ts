import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { matchesGlob, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = resolve(import.meta.dirname, '../../..')
const config = JSON.parse(readFileSync(resolve(ROOT, 'electron-builder.json'), 'utf8')) as {
  appId: string
  productName: string
  directories: { buildResources: string }
  files: string[]
  asarUnpack: string[]
  linux: { target: string[]; icon: string }
  mac: { target: string[]; icon: string }
  win: { target: string[]; icon: string }
}
const pkg = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as {
  main: string
  scripts: Record<string, string>
}

/** Width and height from a PNG's IHDR chunk (big-endian at bytes 16 and 20). */
function pngSize(path: string): [number, number] {
  const png = readFileSync(path)
  expect(png.subarray(1, 4).toString('latin1'), `${path} is a PNG`).toBe('PNG')
  return [png.readUInt32BE(16), png.readUInt32BE(20)]
}

/** Whether electron-builder's `files` list takes a path: the last matching pattern decides. */
function isPackaged(path: string): boolean {
  let taken = false
  for (const pattern of config.files) {
    const isExclusion = pattern.startsWith('!')
    if (matchesGlob(path, isExclusion ? pattern.slice(1) : pattern)) taken = !isExclusion
  }
  return taken
}

// The packaging configuration is checked here, where the packager and Electron's binaries
// cannot be fetched: every file it names exists and is what the platforms expect.
describe('packaging configuration (electron-builder.json)', () => {
  it('names the app and builds for Linux, macOS and Windows', () => {
    expect(config.appId).toMatch(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/)
    expect(config.productName).toBe('Heliograph')
    expect(config.linux.target).toEqual(expect.arrayContaining(['AppImage', 'deb']))
    expect(config.mac.target).toContain('dmg')
    expect(config.win.target).toContain('nsis')
    expect(pkg.scripts.package).toContain('electron-builder.json')
  })

  it('points at icons that exist at the sizes the platforms need', () => {
    expect(config.directories.buildResources).toBe('resources')
    // macOS and Windows build their icon sets from one square PNG of at least 512 px.
    for (const icon of [config.mac.icon, config.win.icon]) {
      const [w, h] = pngSize(resolve(ROOT, icon))
      expect(w).toBe(h)
      expect(w).toBeGreaterThanOrEqual(512)
    }
    // Linux takes a folder of NxN.png files, one per hicolor size.
    const folder = resolve(ROOT, config.linux.icon)
    const files = readdirSync(folder).filter((f) => f.endsWith('.png'))
    expect(files.length).toBeGreaterThanOrEqual(5)
    for (const file of files) {
      const size = Number(/^(\d+)x\1\.png$/.exec(file)?.[1])
      expect(pngSize(resolve(folder, file)), file).toEqual([size, size])
    }
    expect(existsSync(resolve(ROOT, 'resources/icon.svg'))).toBe(true)
  })

  it('packages the built app, its entry point and the window icon, and no source maps', () => {
    for (const file of [
      pkg.main,
      'out/preload/index.cjs',
      'out/renderer/index.html',
      'resources/icon.png',
      'package.json',
    ]) {
      expect(existsSync(resolve(ROOT, file)), `${file} exists (npm test builds first)`).toBe(true)
      expect(isPackaged(file), `${file} is packaged`).toBe(true)
    }
    expect(isPackaged('out/main/index.js.map')).toBe(false)
    expect(isPackaged('src-main/app/core.ts')).toBe(false)
  })

  it('keeps better-sqlite3’s native module outside the asar archive, where it can be loaded', () => {
    const natives = readdirSync(resolve(ROOT, 'node_modules/better-sqlite3'), {
      recursive: true,
    })
      .map(String)
      .filter((f) => f.endsWith('.node'))
      .map((f) => `node_modules/better-sqlite3/${f}`)
    expect(natives.length).toBeGreaterThan(0)
    for (const file of natives) {
      expect(
        config.asarUnpack.some((p) => matchesGlob(file, p)),
        file,
      ).toBe(true)
    }
  })
})
