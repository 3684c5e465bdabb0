import CreditTool

CreditTool.processMain()
