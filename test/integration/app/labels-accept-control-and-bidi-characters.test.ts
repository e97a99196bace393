import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCore, type Core } from '../../../src-main/app/core'
import { makeTempDir } from '../../helpers/temp-dir'
import { testAddress } from '../../helpers/wallets'

// Given the app's core on a fresh data folder, when a label holds a control character, a
// bidi override/isolate or another invisible format character (Unicode Cf), then adding or renaming is refused with a message naming the
// character, and nothing is stored; ordinary text in any script is still a label.

describe('Labels accept control and bidi characters', () => {
  const temp = makeTempDir()
  let core: Core

  beforeAll(async () => {
    core = await createCore({ dataDir: temp.dir, shell: 'web', version: 'test' })
  })
  afterAll(async () => {
    await core.close()
    temp.remove()
  })

  const refused: [string, string, RegExp][] = [
    ['ESC (C0)', 'red \u001b[31m', /U\+001B, a control character/],
    ['BEL (C0)', 'ding\u0007dong', /U\+0007, a control character/],
    // A NUL is refused at the edge, in every field of every channel, in the edge's words.
    ['NUL (C0)', 'a\u0000b', /Label holds a NUL character \(U\+0000\) at character 2/],
    ['a line break inside', 'two\nlines', /U\+000A, a control character/],
    ['DEL', 'del\u007f', /U\+007F, a control character/],
    ['CSI (C1)', 'c1 \u009b31m', /U\+009B, a control character/],
    ['right-to-left override', 'invoice\u202efdp.exe', /U\+202E, a text-direction control/],
    ['left-to-right embedding', '\u202aabc', /U\+202A, a text-direction control/],
    ['first-strong isolate', 'x\u2068y', /U\+2068, a text-direction control/],
    ['pop directional isolate', 'x\u2069', /U\+2069, a text-direction control/],
    [
      'a zero-width space',
      'Trea\u200bsury',
      /U\+200B \(ZERO WIDTH SPACE\), an invisible format character, at position 5; remove it/,
    ],
    ['a zero-width joiner', 'a\u200db', /U\+200D \(ZERO WIDTH JOINER\)/],
    ['a soft hyphen', 'Trea\u00adsury', /U\+00AD \(SOFT HYPHEN\)/],
    ['a byte-order mark inside', 'Sav\ufeffings', /U\+FEFF \(ZERO WIDTH NO-BREAK SPACE\)/],
    ['a word joiner', 'Sav\u2060ings', /U\+2060 \(WORD JOINER\)/],
    ['an interlinear annotation anchor', 'x\ufff9y', /U\+FFF9, an invisible format character/],
  ]

  it.each(refused)(
    'adding a wallet labelled with %s is refused, naming it',
    async (_, label, why) => {
      const answer = await core.dispatch('watchlist:add', { address: testAddress(1), label })
      expect(answer).toMatchObject({ ok: false, error: { name: 'InvalidInputError' } })
      if (!answer.ok) expect(answer.error.message).toMatch(why)
      const listed = await core.dispatch('watchlist:list', undefined)
      expect(listed).toMatchObject({ ok: true, result: [] })
    },
  )

  it('renaming to such a label is refused and the old label stays', async () => {
    const address = testAddress(2)
    expect(await core.dispatch('watchlist:add', { address, label: 'Savings' })).toMatchObject({
      ok: true,
    })
    for (const [, label, why] of refused) {
      const answer = await core.dispatch('watchlist:rename', { address, label })
      expect(answer, label).toMatchObject({ ok: false, error: { message: why } })
    }
    const listed = await core.dispatch('watchlist:list', undefined)
    expect(listed).toMatchObject({ ok: true, result: [{ address, label: 'Savings' }] })
  })

  it('text in any script and emoji are still fine', async () => {
    for (const [n, label] of ['Épargne 💰', 'محفظة الادخار', 'חיסכון', '貯蓄  口座'].entries()) {
      const answer = await core.dispatch('watchlist:add', { address: testAddress(10 + n), label })
      expect(answer, label).toMatchObject({ ok: true, result: { label } })
    }
  })
})
