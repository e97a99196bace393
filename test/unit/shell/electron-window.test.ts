import { describe, expect, it } from 'vitest'
import { APP_ORIGIN, originOf } from '../../../src-main/shell/electron/app-origin'
import { decideNavigation } from '../../../src-main/shell/electron/navigation-policy'
import { isTrustedSender } from '../../../src-main/shell/electron/sender-check'
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { APP_ICON_FILE, buildWindowOptions } from '../../../src-main/shell/electron/window-options'

describe('main window options', () => {
  it('isolates the renderer: sandbox, context isolation, no Node, web security on', () => {
    const { webPreferences } = buildWindowOptions('/app/out/preload/index.cjs')
    expect(webPreferences).toMatchObject({
      preload: '/app/out/preload/index.cjs',
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    })
  })

  it('restores a remembered size but never below the minimum', () => {
    expect(buildWindowOptions('p', { width: 1500, height: 900 })).toMatchObject({
      width: 1500,
      height: 900,
    })
    expect(buildWindowOptions('p', { width: 200, height: 100 })).toMatchObject({
      width: 960,
      height: 600,
    })
  })
})

describe('IPC sender check', () => {
  const allowed = [APP_ORIGIN, 'http://localhost:5173']

  it('accepts the app page and the dev server', () => {
    expect(isTrustedSender('app://heliograph/index.html#/watchlist', allowed)).toBe(true)
    expect(isTrustedSender('http://localhost:5173/', allowed)).toBe(true)
  })

  it('refuses other origins, look-alikes, file URLs and missing frames', () => {
    for (const url of [
      'https://evil.example/',
      'app://heliograph.evil/index.html',
      'http://localhost:5174/',
      'file:///etc/passwd',
      'not a url',
      '',
      undefined,
      null,
    ]) {
      expect(isTrustedSender(url, allowed), String(url)).toBe(false)
    }
  })

  it('computes origins for custom schemes', () => {
    expect(originOf('app://heliograph/a/b?c')).toBe('app://heliograph')
  })
})

describe('navigation policy', () => {
  const allowed = [APP_ORIGIN]
  it('keeps navigation inside the app, sends web links out, drops the rest', () => {
    expect(decideNavigation('app://heliograph/index.html#/wallet/x', allowed)).toBe('allow')
    expect(decideNavigation('https://explorer.solana.com/tx/abc', allowed)).toBe('open-externally')
    expect(decideNavigation('http://example.com/', allowed)).toBe('open-externally')
    expect(decideNavigation('file:///home/user/.ssh/id_rsa', allowed)).toBe('deny')
    expect(decideNavigation('javascript:alert(1)', allowed)).toBe('deny')
    expect(decideNavigation('smb://host/share', allowed)).toBe('deny')
  })

  it('shows the app icon, a file in the repository at the path the window names', () => {
    const root = resolve(import.meta.dirname, '../../..')
    const { icon } = buildWindowOptions('p', undefined, resolve(root, APP_ICON_FILE))
    expect(icon).toBe(resolve(root, 'resources/icon.png'))
    const png = readFileSync(icon as string)
    // PNG signature, then the IHDR width and height (big-endian at bytes 16 and 20).
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG')
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([512, 512])
  })
})
