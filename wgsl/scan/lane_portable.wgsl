// The `lane` block of scan.wgsl where the adapter has no subgroup operations: the one built-in
// every kernel of the family takes. Validated in the scan's variants that use it.
struct Lane {
    @builtin(local_invocation_index) id: u32,
}
