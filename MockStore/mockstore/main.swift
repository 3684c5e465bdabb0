print("mockstore")
