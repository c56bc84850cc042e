@preconcurrency import CReadline
