// Bodies shaped like the service's own answers (docs/service.md), used as recorded
// service answers.

export const WALLET = '86xCnPeV69n6t3DnyGvkKobf9FdN2H9oiVDdaMpo2MMY'
export const OTHER_WALLET = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM'
export const SOL_MINT = 'So11111111111111111111111111111111111111112'
export const USDC_MINT = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v'
export const ASSET_ID = 'F9Lw3ki3hJ7PF9HQXsBzoY8GyE6sPoEZZdXJBsTTD2rk'
export const TREE = 'HTKAVZZrDdyecCxzm3WEkCsG1GUmiqKm73PvngfuYRNK'
export const HASH = '3WSLbGUXbW6sM8rgYn3hHHWnb8Ta4V7UEAKSbCnTgWhN'
export const SIG =
  '5h6xBEauJ3PK6SWCZ1PGjBvj8vDdWG3KpwATGy1ARAXFSDwt8GFXM7W5Ncn16wmqokgpiKRLuS83KUxyZyv2sUYv'
export const SIG_2 =
  '2nBhEBYYvfaAe16UMNqRHre4YNSskvuYgx3M6E4JP1oDYvZEJHvoPzyUidNgNX5r9sTyN1J9UxtbCXy2rqYcuyuv'
export const WEBHOOK_ID = '9f1c2b3a-4d5e-4f60-8a7b-1c2d3e4f5a6b'

export const balancesBody = {
  balances: [
    {
      mint: SOL_MINT,
      balance: 1.5,
      decimals: 9,
      tokenProgram: 'spl-token',
      symbol: 'SOL',
      name: 'Solana',
      pricePerToken: 150.25,
      usdValue: 225.375,
      logoUri: 'https://example.invalid/sol.png',
    },
    {
      mint: USDC_MINT,
      balance: 10,
      decimals: 6,
      tokenProgram: 'spl-token',
      symbol: 'USDC',
      name: 'USD Coin',
      pricePerToken: 1,
      usdValue: 10,
      logoUri: 'https://example.invalid/usdc.png',
    },
  ],
  totalUsdValue: 235.375,
  pagination: { page: 1, limit: 100, hasMore: false },
  nfts: [
    {
      mint: ASSET_ID,
      compressed: true,
      name: 'Sample #1',
      imageUri: 'https://example.invalid/1.png',
      collectionName: 'Samples',
      collectionAddress: TREE,
    },
  ],
}

export const historyEntry = {
  signature: SIG,
  slot: 250_000_000,
  fee: 0.000005,
  feePayer: WALLET,
  balanceChanges: [
    { mint: SOL_MINT, amount: -0.100005, decimals: 9 },
    { mint: USDC_MINT, amount: 15.2, decimals: 6 },
  ],
  timestamp: 1_700_000_000,
  error: null,
}

export const historyBody = {
  data: [historyEntry, { ...historyEntry, signature: SIG_2, error: 'InstructionError' }],
  pagination: { hasMore: true, nextCursor: SIG_2 },
}

export const transferEntry = {
  signature: SIG,
  timestamp: 1_700_000_000,
  direction: 'in',
  counterparty: OTHER_WALLET,
  mint: USDC_MINT,
  amount: 15.2,
  amountRaw: '15200000',
  decimals: 6,
  symbol: 'USDC',
}

export const transfersBody = {
  data: [transferEntry, { ...transferEntry, direction: 'out', symbol: null }],
  pagination: { hasMore: false, nextCursor: 'opaque-cursor-1' },
}

export const identityBody = {
  address: WALLET,
  type: 'exchange',
  name: 'Example Exchange',
  category: 'Centralized Exchange',
  tags: ['hot-wallet'],
  domainNames: ['example.sol'],
}

export const batchIdentityBody = [
  identityBody,
  { ...identityBody, address: OTHER_WALLET, domainNames: undefined },
]

export const fundedByBody = {
  funder: OTHER_WALLET,
  funderName: null,
  funderType: null,
  mint: SOL_MINT,
  symbol: 'SOL',
  amount: 2,
  amountRaw: '2000000000',
  decimals: 9,
  signature: SIG,
  timestamp: 1_690_000_000,
  date: '2023-07-22T04:26:40.000Z',
  slot: 200_000_000,
  explorerUrl: `https://orb.helius.dev/tx/${SIG}`,
}

export const balanceAtBody = {
  wallet: WALLET,
  mint: USDC_MINT,
  isNative: false,
  balance: '10.5',
  balanceRaw: '10500000',
  decimals: 6,
  requested: { time: 1_700_000_000, slot: null, datetime: null },
  asOf: { slot: 249_999_990, blockTime: 1_699_999_990, signature: SIG },
}

export const asset = {
  interface: 'V1_NFT',
  id: ASSET_ID,
  content: {
    $schema: 'https://schema.metaplex.com/nft1.0.json',
    json_uri: 'https://example.invalid/1.json',
    files: [
      {
        uri: 'https://example.invalid/1.png',
        cdn_uri: 'https://cdn.example.invalid/1.png',
        mime: 'image/png',
      },
    ],
    metadata: {
      attributes: [{ value: 'blue', trait_type: 'Background' }],
      description: 'A sample',
      name: 'Sample #1',
      symbol: 'SMP',
    },
    last_indexed_slot: 250_000_000,
  },
  authorities: [{ address: OTHER_WALLET, scopes: ['full'] }],
  compression: {
    eligible: false,
    compressed: true,
    data_hash: HASH,
    creator_hash: HASH,
    asset_hash: HASH,
    tree: TREE,
    seq: 12,
    leaf_id: 11,
  },
  grouping: [{ group_key: 'collection', group_value: TREE }],
  royalty: {
    royalty_model: 'creators',
    target: null,
    percent: 0.05,
    basis_points: 500,
    primary_sale_happened: true,
    locked: false,
  },
  creators: [{ address: OTHER_WALLET, share: 100, verified: true }],
  ownership: {
    frozen: false,
    delegated: false,
    delegate: null,
    ownership_model: 'single',
    owner: WALLET,
  },
  supply: { print_max_supply: 0, print_current_supply: 0, edition_nonce: 254 },
  mutable: true,
  burnt: false,
}

export const assetListResult = {
  last_indexed_slot: 250_000_000,
  total: 1,
  limit: 1000,
  page: 1,
  items: [asset],
}

export const tokenAccountsResult = {
  last_indexed_slot: 250_000_000,
  total: 1,
  limit: 100,
  cursor: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
  token_accounts: [
    {
      address: TREE,
      mint: USDC_MINT,
      owner: WALLET,
      amount: 15_200_000,
      delegated_amount: 0,
      frozen: false,
      burnt: false,
    },
  ],
}

export const compressedAccount = {
  hash: HASH,
  lamports: 1000,
  leafIndex: 7,
  owner: WALLET,
  seq: 3,
  slotCreated: 249_000_000,
  tree: TREE,
  address: null,
  data: { data: 'AQID', dataHash: HASH, discriminator: 2 },
}

const context = { slot: 250_000_001 }

export const compressedAccountsByOwnerResult = {
  context,
  value: { items: [compressedAccount], cursor: null },
}
export const compressedTokenBalancesResult = {
  context,
  value: { items: [{ balance: 500, mint: USDC_MINT }], cursor: USDC_MINT },
}
export const compressedBalanceByOwnerResult = { context, value: 1000 }
export const compressedAccountResult = { context, value: compressedAccount }
export const multipleCompressedAccountsResult = {
  context,
  value: { items: [compressedAccount, null] },
}
export const compressionSignaturesResult = {
  context,
  value: { items: [{ blockTime: 1_700_000_000, signature: SIG, slot: 250_000_000 }], cursor: null },
}
export const transactionWithCompressionInfoResult = {
  compression_info: {
    closedAccounts: [],
    openedAccounts: [
      {
        account: compressedAccount,
        optionalTokenData: {
          amount: 500,
          mint: USDC_MINT,
          owner: WALLET,
          delegate: OTHER_WALLET,
          tlv: 'AA==',
        },
      },
    ],
  },
  transaction: { slot: 250_000_000, meta: {} },
}
export const validityProofResult = {
  context,
  value: {
    compressedProof: { a: 'AQ==', b: 'Ag==', c: 'Aw==' },
    leafIndices: [7],
    leaves: [HASH],
    merkleTrees: [TREE],
    rootIndices: [3],
    roots: [HASH],
  },
}

/** A SOL transfer from WALLET to OTHER_WALLET as getTransaction (jsonParsed) returns it. */
export const transactionResult = {
  slot: 250_000_000,
  blockTime: 1_700_000_000,
  meta: {
    err: null,
    fee: 5_000,
    preBalances: [2_000_000_000, 1_000_000, 1],
    postBalances: [1_499_995_000, 501_000_000, 1],
    preTokenBalances: [],
    postTokenBalances: [],
    innerInstructions: [],
    logMessages: ['Program 11111111111111111111111111111111 invoke [1]'],
  },
  transaction: {
    signatures: [SIG],
    message: {
      accountKeys: [
        { pubkey: WALLET, signer: true, writable: true, source: 'transaction' },
        { pubkey: OTHER_WALLET, signer: false, writable: true, source: 'transaction' },
        {
          pubkey: '11111111111111111111111111111111',
          signer: false,
          writable: false,
          source: 'transaction',
        },
      ],
      instructions: [
        {
          program: 'system',
          programId: '11111111111111111111111111111111',
          parsed: {
            type: 'transfer',
            info: { source: WALLET, destination: OTHER_WALLET, lamports: 500_000_000 },
          },
          stackHeight: null,
        },
      ],
      recentBlockhash: 'EkSnNWid2cvwEVnVx9aBqawnmiCNiDgp3gUdkDPTKN1N',
    },
  },
  version: 0,
}

export const signaturesForAddressResult = [
  {
    signature: SIG,
    slot: 250_000_000,
    err: null,
    memo: null,
    blockTime: 1_700_000_000,
    confirmationStatus: 'finalized',
  },
  {
    signature: SIG_2,
    slot: 249_999_000,
    err: { InstructionError: [0, { Custom: 1 }] },
    memo: 'hello',
    blockTime: null,
    confirmationStatus: null,
  },
]

/** u64::MAX, the rentEpoch of rent-exempt accounts, as JSON.parse reads it (2^64). */
const U64_MAX_PARSED = 2 ** 64

/** A USDC token account of WALLET holding 10 USDC (mint, owner, amount 10,000,000 LE, state 1). */
export const TOKEN_ACCOUNT = 'Fw3Rk5FnuPMXJ3X8c7nvW7pvoHnnRs6uC2N8UCoZfPcw'
export const TOKEN_ACCOUNT_DATA =
  'xvp6877brTo9ZfNqq8l0MbG75MLS9uDkfKYCA0UvXWFpiCGEh0llPHXQQQqVjDAJohMPnDHj34n/YcLXUqQCX4CWmAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'

/** Solana RPC getMultipleAccounts: a wallet, a token account read with dataSlice {64, 8}, a missing account. */
export const multipleAccountsResult = {
  context: { slot: 250_000_000, apiVersion: '2.2.1' },
  value: [
    {
      lamports: 1_500_000_000,
      owner: '11111111111111111111111111111111',
      data: ['', 'base64'],
      executable: false,
      rentEpoch: U64_MAX_PARSED,
      space: 0,
    },
    {
      lamports: 2_039_280,
      owner: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
      data: ['gJaYAAAAAAA=', 'base64'],
      executable: false,
      rentEpoch: U64_MAX_PARSED,
      space: 165,
    },
    null,
  ],
}

/** Solana RPC getTokenAccountsByOwner: one base64 and one jsonParsed token account. */
export const tokenAccountsByOwnerResult = {
  context: { slot: 250_000_000 },
  value: [
    {
      pubkey: TOKEN_ACCOUNT,
      account: {
        lamports: 2_039_280,
        owner: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
        data: [TOKEN_ACCOUNT_DATA, 'base64'],
        executable: false,
        rentEpoch: U64_MAX_PARSED,
        space: 165,
      },
    },
    {
      pubkey: TOKEN_ACCOUNT,
      account: {
        lamports: 2_039_280,
        owner: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
        data: {
          program: 'spl-token',
          parsed: {
            type: 'account',
            info: {
              mint: USDC_MINT,
              owner: WALLET,
              isNative: false,
              state: 'initialized',
              tokenAmount: {
                amount: '10000000',
                decimals: 6,
                uiAmount: 10,
                uiAmountString: '10',
              },
            },
          },
          space: 165,
        },
        executable: false,
        rentEpoch: U64_MAX_PARSED,
        space: 165,
      },
    },
  ],
}

/** Solana RPC getBalance. */
export const balanceResult = { context: { slot: 250_000_000 }, value: 1_500_000_000 }

export const priorityFeeResult = {
  priorityFeeEstimate: 12_000,
  priorityFeeLevels: {
    min: 0,
    low: 100,
    medium: 1000,
    high: 12_000,
    veryHigh: 50_000,
    unsafeMax: 900_000,
  },
}

export const tokenMetadataRecord = {
  account: USDC_MINT,
  onChainAccountInfo: {
    accountInfo: {
      key: USDC_MINT,
      isSigner: false,
      isWritable: false,
      lamports: 388_127_047_454,
      data: {
        parsed: {
          info: {
            decimals: 6,
            freezeAuthority: OTHER_WALLET,
            isInitialized: true,
            mintAuthority: OTHER_WALLET,
            supply: '5034964468181365',
          },
          type: 'mint',
        },
        program: 'spl-token',
        space: 82,
      },
      owner: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
      executable: false,
      rentEpoch: 361,
    },
    error: '',
  },
  onChainMetadata: {
    metadata: {
      key: 'MetadataV1',
      mint: USDC_MINT,
      updateAuthority: OTHER_WALLET,
      data: {
        name: 'USD Coin',
        symbol: 'USDC',
        uri: '',
        sellerFeeBasisPoints: 0,
        creators: [{ address: OTHER_WALLET, share: '100', verified: true }],
      },
      tokenStandard: 'Fungible',
      primarySaleHappened: false,
      isMutable: true,
      editionNonce: 252,
      collection: { key: TREE, verified: false },
      collectionDetails: { size: 0 },
      uses: { useMethod: 'Single', remaining: 0, total: 0 },
    },
    error: '',
  },
  offChainMetadata: { metadata: null, uri: '', error: 'no uri' },
  legacyMetadata: {
    chainId: 101,
    address: USDC_MINT,
    symbol: 'USDC',
    name: 'USD Coin',
    decimals: 6,
    logoURI: 'https://example.invalid/usdc.png',
    tags: ['stablecoin'],
    extensions: { website: 'https://example.invalid' },
  },
}

export const webhook = {
  webhookID: WEBHOOK_ID,
  wallet: WALLET,
  webhookURL: 'https://hooks.example.invalid/in',
  transactionTypes: ['ANY'],
  accountAddresses: [WALLET, OTHER_WALLET],
  webhookType: 'enhanced',
  authHeader: 'Bearer hook-secret',
  active: true,
}
