import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AlertDeliverer } from '../../../src-main/alerts/alert-deliverer'
import { channelRequestOf, type SentAlert } from '../../../src-main/alerts/channel-messages'
import { ChannelSecrets, CHANNEL_SECRETS_FILE } from '../../../src-main/alerts/channel-secrets'
import { FileSecretStore } from '../../../src-main/app/secret-store'
import { openMirror } from '../../../src-main/db/open-mirror'
import { startSimulator, type RunningSimulator } from '../../../src-main/simulator/simulator-server'
import { startAlertReceiver, type AlertReceiver } from '../../helpers/alert-receiver'
import { runCli } from '../../helpers/cli-in-process'
import { makeTempDir } from '../../helpers/temp-dir'
import { VirtualClock } from '../../helpers/virtual-clock'

// Messages that cannot be turned against their reader. A label, a rule name and a token's
// symbol from the chain (anyone can airdrop a token called `<!channel>`) reach each channel
// in a form that channel shows as text: Slack escaped, Discord's markdown escaped with
// mentions off, Telegram plain, the json format raw. The simulator issues the hostile token.

const LABEL = '<!channel> & <@U1>'
const SLACK_RULE = 'Any <!here> move'
const DISCORD_RULE = '[x](https://evil.example)'

interface Received {
  text?: string
  content?: string
  allowed_mentions?: unknown
  flags?: number
  walletLabel?: string
  rule?: { name: string }
  amounts?: { symbol: string | null }[]
}

describe('untrusted text made safe per format', () => {
  const temp = makeTempDir()
  let sim: RunningSimulator
  let slack: AlertReceiver
  let discord: AlertReceiver
  let json: AlertReceiver
  let base: string[]

  const cli = async (...args: string[]) => {
    const run = await runCli([...base, ...args])
    expect(run.code, `${args.join(' ')}\n${run.stderr}`).toBe(0)
    return run.stdout
  }
  const bodies = (r: AlertReceiver) => r.received.map((p) => JSON.parse(p.body) as Received)

  beforeAll(async () => {
    sim = await startSimulator({ seed: 11 })
    ;[slack, discord, json] = await Promise.all([
      startAlertReceiver(),
      startAlertReceiver(),
      startAlertReceiver(),
    ])
    base = ['--data-dir', temp.dir, '--service', sim.url, '--api-key', 'demo']
    const wallet = sim.chain.walletByProfile('casual')
    await cli('watch', 'add', wallet.address, '--label', LABEL)
    await cli('sync', '--once', '--quiet')
    await cli('notify', 'add', 'team', '--format', 'slack', '--url', slack.url)
    await cli('notify', 'add', 'chat', '--format', 'discord', '--url', discord.url)
    await cli('notify', 'add', 'ops', '--format', 'json', '--url', json.url)
    await cli(
      'alerts',
      'add',
      '--when',
      'incoming',
      '--name',
      SLACK_RULE,
      '--notify',
      'team',
      '--notify',
      'ops',
    )
    await cli('alerts', 'add', '--when', 'incoming', '--name', DISCORD_RULE, '--notify', 'chat')
    // Anyone can issue a token and name it: this one pings a Slack channel if shown raw.
    sim.inject(wallet, {
      kind: 'token-airdrop',
      issue: { symbol: '<!channel>', name: '[free](https://evil.example)' },
    })
    await cli('sync', '--once', '--quiet')
    // `sync --once` leaves delivery to a watching process: deliver as one would.
    const mirror = await openMirror({ file: join(temp.dir, 'heliograph.sqlite') })
    const deliverer = new AlertDeliverer({
      outbox: () => mirror.alerts,
      channels: mirror.notifyChannels,
      secrets: new ChannelSecrets(new FileSecretStore(temp.dir, CHANNEL_SECRETS_FILE)),
      desktop: null,
      clock: new VirtualClock(),
      redact: (text) => text,
    })
    try {
      await deliverer.drain()
    } finally {
      await deliverer.stop()
      await mirror.close()
    }
  })
  afterAll(async () => {
    await Promise.all([slack.close(), discord.close(), json.close()])
    await sim.close()
    temp.remove()
  })

  it('Slack: the label, the rule name and the symbol arrive escaped, with nothing left to ping', () => {
    const [message] = bodies(slack)
    expect(bodies(slack)).toHaveLength(1)
    const text = message?.text ?? ''
    expect(text).toContain('Any &lt;!here&gt; move · &lt;!channel&gt; &amp; &lt;@U1&gt;')
    expect(text).toMatch(
      /\n&lt;!channel&gt; &amp; &lt;@U1&gt; received [\d,.]+ &lt;!channel&gt; from /,
    )
    expect(text).not.toMatch(/<[!@#]/)
  })

  it('Discord: markdown escaped, so no masked link and no mention, mentions off and no previews', () => {
    const [message] = bodies(discord)
    expect(bodies(discord)).toHaveLength(1)
    expect(message?.allowed_mentions).toEqual({ parse: [] })
    expect(message?.flags).toBe(4)
    const content = message?.content ?? ''
    expect(content.startsWith('\\[x\\]\\(https\\://evil.example\\)')).toBe(true)
    expect(content).not.toMatch(/(?<!\\)[[\]()<>]/)
  })

  it('json: the raw fields, for the receiver to show as it shows text', () => {
    const [body] = bodies(json)
    expect(body?.walletLabel).toBe(LABEL)
    expect(body?.rule?.name).toBe(SLACK_RULE)
    expect(body?.amounts?.map((a) => a.symbol)).toContain('<!channel>')
  })

  it('Telegram: plain text (no parse mode), each line capped', () => {
    const alert: SentAlert = {
      id: 5,
      kind: 'rule',
      rule: { id: 1, name: SLACK_RULE },
      healthKind: null,
      wallet: sim.chain.walletByProfile('casual').address,
      walletLabel: LABEL,
      signature: null,
      firedAt: '2026-11-28T12:00:00.000Z',
      text: `x${'y'.repeat(5000)}`,
      matchCount: 1,
      amounts: [],
    }
    const body = JSON.parse(channelRequestOf('telegram', alert, { nowSec: 0, chatId: '42' }).body)
    expect(body).not.toHaveProperty('parse_mode')
    expect(body.text.startsWith(`${SLACK_RULE} · ${LABEL}\nxy`)).toBe(true)
    expect(body.text).toHaveLength(4096)
  })
})
