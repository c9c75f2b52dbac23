/// A console action refused only because the operator's last authentication is more than five
/// minutes old: the console asks them to authenticate again, then they act.
package struct ConsoleStepUpNeeded: Error, Sendable, Equatable {
    package init() {}
}
