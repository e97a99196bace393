import { resolve } from 'node:path'
import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

// The project's own lint configuration, run on imports written for the occasion: an
// import that points up the layers of src-main (docs/ARCHITECTURE.md, Layout) fails
// `npm run lint`; one that points down passes.
const PROJECT_ROOT = resolve(import.meta.dirname, '../../..')
const eslint = new ESLint({ cwd: PROJECT_ROOT })

async function restrictedImports(filePath: string, specifier: string): Promise<string[]> {
  const code = `import { value } from '${specifier}'\n\nexport const copy = value\n`
  const [result] = await eslint.lintText(code, { filePath: resolve(PROJECT_ROOT, filePath) })
  return result!.messages
    .filter((message) => message.ruleId === 'no-restricted-imports')
    .map((message) => message.message)
}

describe('the layers of src-main, in lint', () => {
  it.each([
    ['db imports app', 'src-main/db/stores/some-store.ts', '../../app/core', 'app'],
    ['sync imports a shell', 'src-main/sync/some-stream.ts', '../shell/web/web-server', 'shell'],
    ['sync imports the CLI', 'src-main/sync/streams/some.ts', '../../cli/program', 'cli'],
    ['service imports db', 'src-main/service/some-call.ts', '../db/mirror', 'db'],
    [
      'webhooks imports its peer lookup',
      'src-main/webhooks/x.ts',
      '../lookup/lookup-desk',
      'lookup',
    ],
    ['the simulator imports sync', 'src-main/simulator/x.ts', '../sync/sync-engine', 'sync'],
    ['sync imports the simulator', 'src-main/sync/x.ts', '../simulator/simulator', 'simulator'],
  ])('refuses an import that points up: %s', async (_name, filePath, specifier, room) => {
    const messages = await restrictedImports(filePath, specifier)
    expect(messages).toHaveLength(1)
    expect(messages[0]).toContain(room)
    expect(messages[0]).toContain('docs/ARCHITECTURE.md')
  })

  it.each([
    ['app imports db', 'src-main/app/some-part.ts', '../db/mirror'],
    ['a handler imports sync', 'src-main/app/handlers/x.ts', '../../sync/sync-engine'],
    ['the CLI imports the web shell', 'src-main/cli/x.ts', '../shell/web/web-server'],
    ['db imports service', 'src-main/db/x.ts', '../service/service-errors'],
    ['app imports the simulator', 'src-main/app/demo.ts', '../simulator/simulator'],
    ['a store imports its own room', 'src-main/db/stores/x.ts', '../queries/row-filters'],
    ['service imports src-shared', 'src-main/service/x.ts', '@shared/api/enums'],
  ])('lets an import that points down through: %s', async (_name, filePath, specifier) => {
    expect(await restrictedImports(filePath, specifier)).toEqual([])
  })

  it('keeps the engines behind openMirror: only db imports db/sqlite or db/postgres', async () => {
    expect(await restrictedImports('src-main/app/x.ts', '../db/sqlite/mirror')).toHaveLength(1)
    expect(await restrictedImports('src-main/cli/x.ts', '../db/postgres/database')).toHaveLength(1)
    expect(await restrictedImports('src-main/db/open-mirror.ts', './sqlite/mirror')).toEqual([])
  })

  it('keeps electron to the Electron shell', async () => {
    expect(await restrictedImports('src-main/app/x.ts', 'electron')).toHaveLength(1)
    expect(await restrictedImports('src-main/shell/electron/x.ts', 'electron')).toEqual([])
  })
})
