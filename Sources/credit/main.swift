print("credit")
