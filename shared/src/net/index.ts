export {
  type AllowedTarget,
  forbiddenAddressReason,
  noPublicAddress,
  type ResolveTargetOptions,
  resolveAllowedTarget,
  TargetRefusedError,
} from './target-guard.ts'
