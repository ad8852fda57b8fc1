// Package testenv finds the shared test data beside the checkout and decides
// what a test does when something it needs is missing: skip with the reason,
// or fail when SMTARENA_TEST_DISALLOW_SKIP is set (as CI sets it), so that a
// green CI run means every gated test ran.
package testenv
