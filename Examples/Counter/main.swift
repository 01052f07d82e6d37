print("counter")
