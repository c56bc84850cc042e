import WeighKit
print("weigh")
