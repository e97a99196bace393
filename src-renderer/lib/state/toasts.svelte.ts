import { client } from './connection.svelte'

export interface Toast {
  id: number
  text: string
  tone: 'info' | 'error'
}

/** Short notices in the corner: new activity found by a sync, failed actions. */
export const toasts = $state<{ list: Toast[] }>({ list: [] })
let nextId = 1

/** Shows a notice for a few seconds. */
export function toast(text: string, tone: Toast['tone'] = 'info', ms = 6_000): void {
  const id = nextId++
  toasts.list = [...toasts.list.slice(-3), { id, text, tone }]
  setTimeout(() => dismissToast(id), ms)
}

export function dismissToast(id: number): void {
  toasts.list = toasts.list.filter((t) => t.id !== id)
}

// The summary already names the wallet (by the one naming rule).
client.on('sync:activity', (notice) => toast(notice.summary))
