import { readFileSync } from 'node:fs'

/** The app's version from package.json, read once (works from source and from the bundle). */
export function readAppVersion(packageJsonUrl: URL): string {
  try {
    return (JSON.parse(readFileSync(packageJsonUrl, 'utf8')) as { version: string }).version
  } catch {
    return '0.0.0'
  }
}
