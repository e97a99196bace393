import { afterAll, describe, expect, it } from 'vitest'
import { runCli, type CliRun } from '../../helpers/cli-in-process'
import { readStoredMirror } from '../../helpers/stored-mirror'
import { makeTempDir } from '../../helpers/temp-dir'
import { testAddress } from '../../helpers/wallets'

// Given watched wallets, when a person tags and untags them from the command line, then
// tags are kept lower-case and once each, `watch list` shows them (and --json carries
// them), export --tag exports the tagged wallets, bad tags and unwatched addresses are
// refused by name with exit 1, and removing a wallet removes its tags.

describe('CLI: watch tag and untag', () => {
  const temp = makeTempDir()
  const cli = (...args: string[]): Promise<CliRun> => runCli(['--data-dir', temp.dir, ...args])
  const treasury = testAddress(31)
  const desk = testAddress(32)
  afterAll(() => temp.remove())

  it('tags wallets lower-case and once each, and watch list shows the tags', async () => {
    expect((await cli('watch', 'add', treasury, '--label', 'Treasury')).code).toBe(0)
    expect((await cli('watch', 'add', desk)).code).toBe(0)
    const tagged = await cli('watch', 'tag', treasury, 'Cold', ' ops ', 'COLD')
    expect(tagged.code, tagged.stderr).toBe(0)
    expect(tagged.stdout).toBe(`Tagged ${treasury}: cold, ops\n`)
    expect((await cli('watch', 'tag', desk, 'ops')).code).toBe(0)
    const list = await cli('watch', 'list', '--json')
    expect(
      (JSON.parse(list.stdout) as { address: string; tags: string[] }[]).map((w) => [
        w.address,
        w.tags,
      ]),
    ).toEqual([
      [treasury, ['cold', 'ops']],
      [desk, ['ops']],
    ])
    expect((await cli('watch', 'list')).stdout).toBe(
      `${treasury}  Treasury  #cold #ops\n${desk}    #ops\n`,
    )
  })

  it('untags, and refuses a tag the wallet does not have, naming it', async () => {
    const untagged = await cli('watch', 'untag', treasury, 'OPS')
    expect(untagged.code, untagged.stderr).toBe(0)
    expect(untagged.stdout).toBe(`Untagged ${treasury} (tags: cold)\n`)
    const missing = await cli('watch', 'untag', treasury, 'hot')
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain(`Wallet ${treasury} has no tag “hot” (its tags: cold).`)
  })

  it('refuses bad tags and unwatched addresses by name, with exit 1', async () => {
    const cases: [string[], string][] = [
      [['watch', 'tag', treasury, 'two words'], 'Tag “two words” contains a space'],
      [['watch', 'tag', treasury, 'x'.repeat(41)], 'is 41 characters long; at most 40'],
      [['watch', 'tag', treasury, 'zero\u200bwidth'], 'U+200B (ZERO WIDTH SPACE)'],
      [['watch', 'tag', treasury, '   '], 'A tag cannot be empty.'],
      [
        ['watch', 'tag', testAddress(33), 'ops'],
        `Wallet ${testAddress(33)} is not on the watchlist.`,
      ],
      [
        ['watch', 'untag', testAddress(33), 'ops'],
        `Wallet ${testAddress(33)} is not on the watchlist.`,
      ],
    ]
    for (const [args, message] of cases) {
      const run = await cli(...args)
      expect(run.code, args.join(' ')).toBe(1)
      expect(run.stderr).toContain(message)
    }
  })

  it('export --tag exports the wallets carrying the tag, and refuses a tag no wallet has', async () => {
    const out = `${temp.dir}/cold.csv`
    const cold = await cli('export', '--tag', 'COLD', '--estimate', '--out', out)
    expect(cold.code, cold.stderr).toBe(0)
    expect(cold.stderr).toMatch(/Would export .*wallet Treasury/)
    const both = await cli('export', '--tag', 'cold', '--wallet', desk, '--estimate', '--out', out)
    expect(both.stderr).toMatch(/Would export .*wallets .*, Treasury/)
    const nobody = await cli('export', '--tag', 'nobody', '--estimate', '--out', out)
    expect(nobody.code).toBe(1)
    expect(nobody.stderr).toContain('--tag “nobody”: no watched wallet has this tag.')
    const bad = await cli('export', '--tag', 'a b', '--estimate', '--out', out)
    expect(bad.code).toBe(1)
    expect(bad.stderr).toContain('--tag “a b”: Tag “a b” contains a space')
  })

  it('removing a wallet removes its tags', async () => {
    expect((await cli('watch', 'remove', desk)).code).toBe(0)
    const tags = await readStoredMirror({ dataDir: temp.dir }, (db) =>
      db.selectFrom('wallet_tags').select('tag').execute(),
    )
    expect(tags).toEqual([{ tag: 'cold' }])
  })
})
