export {
  type AllowedTarget,
  forbiddenAddressReason,
  type ResolveTargetOptions,
  resolveAllowedTarget,
  TargetRefusedError,
} from './target-guard.ts'
