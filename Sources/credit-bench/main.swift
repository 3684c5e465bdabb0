print("credit-bench")
