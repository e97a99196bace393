import { originOf } from './app-origin'

/** The part of Electron's session that takes permission handlers (kept narrow to test without Electron). */
export interface PermissionSession {
  setPermissionRequestHandler(
    handler: (
      webContents: unknown,
      permission: string,
      callback: (granted: boolean) => void,
      details: { requestingUrl?: string },
    ) => void,
  ): void
  setPermissionCheckHandler(
    handler: (
      webContents: unknown,
      permission: string,
      requestingOrigin: string,
      details: unknown,
    ) => boolean,
  ): void
}

/**
 * Without handlers Electron grants a page nearly every permission (camera, microphone,
 * location, notifications, opening external apps). The app needs one: writing text to
 * the clipboard, for the Copy buttons of its own page.
 */
export function isPermissionGranted(
  permission: string,
  requestingUrl: string | undefined,
  appOrigins: readonly string[],
): boolean {
  if (permission !== 'clipboard-sanitized-write' || !requestingUrl) return false
  const origin = originOf(requestingUrl)
  return origin !== null && origin !== 'file://' && appOrigins.includes(origin)
}

/** Answers every permission request and check of a session with `isPermissionGranted`. */
export function applyPermissionPolicy(
  session: PermissionSession,
  appOrigins: readonly string[],
): void {
  session.setPermissionRequestHandler((_webContents, permission, callback, details) =>
    callback(isPermissionGranted(permission, details.requestingUrl, appOrigins)),
  )
  session.setPermissionCheckHandler((_webContents, permission, requestingOrigin) =>
    isPermissionGranted(permission, requestingOrigin, appOrigins),
  )
}
