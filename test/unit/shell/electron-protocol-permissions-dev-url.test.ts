import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { APP_ORIGIN } from '../../../src-main/shell/electron/app-origin'
import { devServerUrlToLoad } from '../../../src-main/shell/electron/dev-server'
import {
  applyPermissionPolicy,
  type PermissionSession,
} from '../../../src-main/shell/electron/permission-policy'
import { rendererFilePath } from '../../../src-main/shell/electron/renderer-files'

// The Electron shell's decisions, made by pure functions so they run without an Electron
// binary: which file an app:// URL may read, which permissions a page gets, and whether
// the window may load a dev server instead of the packaged renderer.

const RENDERER = join('/opt', 'Heliograph', 'resources', 'app', 'out', 'renderer')

/** The path part of an app:// URL as Electron's protocol handler sees it. */
const pathOf = (url: string): string => new URL(url).pathname

describe('The Electron protocol check startsWith(rendererDir) has no separator', () => {
  it('serves the renderer’s own files', () => {
    expect(rendererFilePath(RENDERER, pathOf('app://heliograph/index.html'))).toBe(
      join(RENDERER, 'index.html'),
    )
    expect(rendererFilePath(RENDERER, pathOf('app://heliograph/assets/index-abc.js'))).toBe(
      join(RENDERER, 'assets', 'index-abc.js'),
    )
    expect(rendererFilePath(RENDERER, '/fonts/a%20b.woff2')).toBe(
      join(RENDERER, 'fonts', 'a b.woff2'),
    )
  })

  it('refuses a sibling folder whose name starts like the renderer’s', () => {
    for (const url of [
      'app://heliograph/..%2Frenderer-evil/secret.txt',
      'app://heliograph/..%2Frenderer.bak/index.html',
      'app://heliograph/..%2frenderer2/x',
    ]) {
      expect(rendererFilePath(RENDERER, pathOf(url)), url).toBeNull()
    }
  })

  it('refuses every other way out, the folder itself and undecodable paths', () => {
    for (const path of [
      '/..%2F..%2F..%2Fetc%2Fpasswd',
      '/%2e%2e%2f%2e%2e%2fsecret',
      '/assets/..%2F..%2F..%2Fmain%2Findex.js',
      '/',
      '/%E0%A4%A',
      '/index.html%00.png',
    ]) {
      expect(rendererFilePath(RENDERER, path), path).toBeNull()
    }
  })
})

/** Stands in for Electron's session (no Electron binary here): it keeps the handlers set on it. */
function recordingSession(): PermissionSession & {
  request(permission: string, requestingUrl: string): boolean
  check(permission: string, requestingOrigin: string): boolean
} {
  let onRequest: Parameters<PermissionSession['setPermissionRequestHandler']>[0] | null = null
  let onCheck: Parameters<PermissionSession['setPermissionCheckHandler']>[0] | null = null
  return {
    setPermissionRequestHandler: (handler) => (onRequest = handler),
    setPermissionCheckHandler: (handler) => (onCheck = handler),
    request(permission, requestingUrl) {
      let granted: boolean | undefined
      if (!onRequest) throw new Error('no permission request handler')
      onRequest(null, permission, (g) => (granted = g), { requestingUrl })
      if (granted === undefined) throw new Error('the request was never answered')
      return granted
    },
    check(permission, requestingOrigin) {
      if (!onCheck) throw new Error('no permission check handler')
      return onCheck(null, permission, requestingOrigin, { requestingUrl: requestingOrigin })
    },
  }
}

describe('no permission request handler', () => {
  const PERMISSIONS = [
    'media',
    'geolocation',
    'notifications',
    'midi',
    'midiSysex',
    'pointerLock',
    'fullscreen',
    'openExternal',
    'clipboard-read',
    'display-capture',
    'idle-detection',
    'hid',
    'serial',
    'usb',
    'storage-access',
    'window-management',
    'unknown',
  ]

  it('denies every permission, to the app’s own page as to any other', () => {
    const session = recordingSession()
    applyPermissionPolicy(session, [APP_ORIGIN])
    for (const permission of PERMISSIONS) {
      for (const url of [`${APP_ORIGIN}/index.html`, 'https://evil.example/']) {
        expect(session.request(permission, url), `${permission} ${url}`).toBe(false)
        expect(session.check(permission, new URL(url).origin), `${permission} ${url}`).toBe(false)
      }
    }
  })

  it('lets only the app’s page write text to the clipboard (its Copy buttons)', () => {
    const session = recordingSession()
    applyPermissionPolicy(session, [APP_ORIGIN])
    expect(session.request('clipboard-sanitized-write', `${APP_ORIGIN}/index.html`)).toBe(true)
    expect(session.check('clipboard-sanitized-write', APP_ORIGIN)).toBe(true)
    expect(session.request('clipboard-sanitized-write', 'https://evil.example/')).toBe(false)
    expect(session.check('clipboard-sanitized-write', 'https://evil.example')).toBe(false)
  })
})

describe('ELECTRON_RENDERER_URL trusted in packaged builds', () => {
  const env = { ELECTRON_RENDERER_URL: 'http://localhost:5173' }

  it('a packaged app ignores it and loads its own renderer', () => {
    expect(devServerUrlToLoad(env, true)).toBeUndefined()
    expect(
      devServerUrlToLoad({ ELECTRON_RENDERER_URL: 'https://evil.example/' }, true),
    ).toBeUndefined()
  })

  it('while developing, a dev server on this computer is used', () => {
    expect(devServerUrlToLoad(env, false)).toBe('http://localhost:5173')
    expect(devServerUrlToLoad({}, false)).toBeUndefined()
  })

  it('while developing, a dev server elsewhere is not', () => {
    for (const url of ['https://evil.example/', 'http://10.0.0.5:5173', 'file:///tmp/x.html']) {
      expect(devServerUrlToLoad({ ELECTRON_RENDERER_URL: url }, false), url).toBeUndefined()
    }
  })
})
