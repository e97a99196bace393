import type { OperationInput, OperationName, OperationOutput } from '@shared/api/operations'

/**
 * A call to the service on behalf of one wallet, through the rate shaper and the credit
 * meter. What streams, change detection and mint naming need of the engine, and no more.
 */
export type WalletCall = <N extends OperationName>(
  operation: N,
  input: OperationInput<N>,
  signal?: AbortSignal,
) => Promise<OperationOutput<N>>
