import { existsSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const OUT = resolve(import.meta.dirname, '../../../out')

// `npm test` runs `electron-vite build` before the suites; this checks what it emitted.
describe('electron-vite build output', () => {
  it('emits main, preload and renderer', () => {
    for (const file of ['main/index.js', 'preload/index.cjs', 'renderer/index.html']) {
      expect(existsSync(resolve(OUT, file)), file).toBe(true)
    }
  })

  it('emits the preload as CommonJS requiring only electron, so the sandbox can load it', () => {
    const preload = readFileSync(resolve(OUT, 'preload/index.cjs'), 'utf8')
    expect(preload).toMatch(/require\(["']electron["']\)/)
    expect(preload).not.toMatch(/^\s*import\s/m)
    expect(preload).not.toMatch(/^\s*export\s/m)
    const required = [...preload.matchAll(/require\(["']([^"']+)["']\)/g)].map((m) => m[1])
    expect(new Set(required)).toEqual(new Set(['electron']))
  })

  it('keeps better-sqlite3 external to the main bundle', () => {
    const main = readFileSync(resolve(OUT, 'main/index.js'), 'utf8')
    expect(main).toMatch(/from ["']better-sqlite3["']|require\(["']better-sqlite3["']\)/)
    expect(main).not.toMatch(/from ["']electron\/main["']|require\(["']p-queue["']\)/)
  })
})
