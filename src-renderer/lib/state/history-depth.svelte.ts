import type {
  HistoryDepthView,
  OlderHistoryOutcome,
  OlderHistoryTarget,
} from '@shared/ipc/history-load-schemas'
import { client } from './connection.svelte'

/**
 * How much of each wallet's history the mirror holds ("newest 1,000 of ≈ 1,000,000+
 * transactions"), with the next load of older history and its cost; and the loads of
 * older history under way, followed until they end.
 */
export const historyDepth = $state<{
  byAddress: Record<string, HistoryDepthView>
  /** A load of older history asked for here: running, or how it ended. */
  loads: Record<string, { phase: 'running' | 'done' | 'failed'; message: string | null }>
  /** Bumped when a load ends: the History and Transfers lists read the mirror again. */
  generation: number
}>({ byAddress: {}, loads: {}, generation: 0 })

/** Reads a wallet's depth view again (after a sync or a load). */
export async function refreshHistoryDepth(address: string): Promise<void> {
  try {
    historyDepth.byAddress[address] = await client.call('sync:history-depth', { address })
  } catch {
    // Not watched any more, or the core is gone: the view keeps what it had.
  }
}

/**
 * Loads older history of a wallet (its cost was shown, and agreed to where it asked):
 * runs until done, stopped or cancelled, then the views read the mirror again.
 */
export async function loadOlderHistory(
  address: string,
  target: OlderHistoryTarget,
  approvedCredits?: number,
): Promise<OlderHistoryOutcome | null> {
  historyDepth.loads[address] = { phase: 'running', message: null }
  try {
    const result = await client.call('sync:older', {
      address,
      target,
      ...(approvedCredits === undefined ? {} : { approvedCredits }),
    })
    historyDepth.loads[address] = {
      phase: result.isDone ? 'done' : 'failed',
      message: result.summary,
    }
    return result
  } catch (e) {
    historyDepth.loads[address] = {
      phase: 'failed',
      message: e instanceof Error ? e.message : String(e),
    }
    return null
  } finally {
    historyDepth.generation += 1
    await refreshHistoryDepth(address)
  }
}

client.on('sync:wallet-state', (status) => {
  // A finished sync moves the counts: a wallet shown here is read again.
  if (status.state !== 'syncing' && historyDepth.byAddress[status.address] !== undefined)
    void refreshHistoryDepth(status.address)
})
